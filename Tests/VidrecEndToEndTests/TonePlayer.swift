import Foundation
import Glibc
import Testing

/// Plays a sine into the loopback card's playback side (`hw:Loopback,0,0`) with aplay,
/// so that vidrec captures it from `hw:Loopback,1,0`.
final class TonePlayer {
    let process = Process()
    private var signaller: ChildSignal?

    init(frequency: Int) throws {
        // aplay with a one-second buffer, from a file made beforehand: a player that
        // underruns while the guest is busy encoding would put gaps into the "microphone".
        let wave = NSTemporaryDirectory() + "tone-\(frequency).wav"
        if !FileManager.default.fileExists(atPath: wave) {
            _ = try Probe.tool("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=\(frequency):r=48000:d=120",
                                          "-ac", "2", "-c:a", "pcm_s16le", wave])
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/aplay")
        process.arguments = ["-q", "-D", "hw:Loopback,0,0", "--buffer-time=1000000", wave]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        signaller = ChildSignal(process)
        // ALSA takes a while to read its configuration in the guest: wait for RUNNING.
        let running = Poll.until { () -> Bool? in
            let status = try? String(contentsOfFile: "/proc/asound/card0/pcm0p/sub0/status", encoding: .utf8)
            return status?.contains("RUNNING") == true ? true : nil
        }
        if running == nil { Issue.record("the tone player never started") }
    }

    deinit {
        // SIGKILL: aplay would drain its ALSA buffer on SIGTERM first.
        signaller?.send(SIGKILL)
        process.waitUntilExit()
    }
}
