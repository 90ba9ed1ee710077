import Foundation
import Glibc
import Testing

/// Plays a sine into the loopback card's playback side (`hw:Loopback,0,0`) with aplay,
/// so that vidrec captures it from `hw:Loopback,1,0`; or into device 1, to be captured
/// from device 0 (where PipeWire's source for the card reads).
final class TonePlayer {
    let process = Process()
    private var signaller: ChildSignal?
    /// aplay's messages: it reports each underrun ("underrun!!!").
    private let log = NSTemporaryDirectory() + "tone-player-\(UUID().uuidString).log"

    /// How often the player underran so far: each time, the "microphone" heard a break
    /// in the tone that was the player's, not vidrec's (a guest far behind under load).
    var underruns: Int {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").components(separatedBy: "underrun").count - 1
    }

    init(frequency: Int, device: Int = 0) throws {
        // aplay with a one-second buffer, from a file made beforehand: a player that
        // underruns while the guest is busy encoding would put gaps into the "microphone".
        let wave = NSTemporaryDirectory() + "tone-\(frequency).wav"
        if !FileManager.default.fileExists(atPath: wave) {
            _ = try Probe.tool("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=\(frequency):r=48000:d=120",
                                          "-ac", "2", "-c:a", "pcm_s16le", wave])
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/aplay")
        process.arguments = ["-D", "hw:Loopback,\(device),0", "--buffer-time=1000000", wave]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
        signaller = ChildSignal(process)
        // ALSA takes a while to read its configuration in the guest: wait for RUNNING.
        let running = Poll.until { () -> Bool? in
            let status = try? String(contentsOfFile: "/proc/asound/card0/pcm\(device)p/sub0/status", encoding: .utf8)
            return status?.contains("RUNNING") == true ? true : nil
        }
        if running == nil { Issue.record("the tone player never started") }
    }

    deinit {
        // SIGKILL: aplay would drain its ALSA buffer on SIGTERM first.
        signaller?.send(SIGKILL)
        process.waitUntilExit()
        unlink(log)
    }
}
