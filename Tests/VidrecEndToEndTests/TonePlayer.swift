import Foundation
import Glibc
import Testing

/// Plays a sine into the loopback card's playback side (`hw:Loopback,0,0`) with FFmpeg's
/// own ALSA output, so that vidrec captures it from `hw:Loopback,1,0`.
final class TonePlayer {
    let process = Process()

    init(frequency: Int) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-re", "-f", "lavfi", "-i", "sine=f=\(frequency):r=48000",
                             "-ac", "2", "-f", "alsa", "hw:Loopback,0,0"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // ALSA takes a while to read its configuration in the guest: wait for RUNNING.
        let deadline = Date(timeIntervalSinceNow: 30)
        while Date() < deadline {
            if let status = try? String(contentsOfFile: "/proc/asound/card0/pcm0p/sub0/status", encoding: .utf8),
               status.contains("RUNNING") { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        Issue.record("the tone player never started")
    }

    deinit {
        // SIGKILL: ffmpeg would drain its ALSA buffer on SIGTERM first.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
