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

    /// The card's playback device the player plays into.
    let device: Int

    convenience init(frequency: Int, device: Int = 0) throws {
        let wave = NSTemporaryDirectory() + "tone-\(frequency).wav"
        try self.init(wave: wave, source: "sine=f=\(frequency):r=48000:d=120", device: device)
    }

    /// Plays silence with a burst of 1 kHz (50 ms) at every whole second of the player's
    /// own time from the first on, for ``playOrigin()`` to date.
    convenience init(burstsInto device: Int) throws {
        try self.init(wave: NSTemporaryDirectory() + "bursts.wav",
                      source: "aevalsrc=if(gte(t\\,1)*lt(mod(t\\,1)\\,0.05)\\,0.8*sin(2*PI*1000*t)\\,0):s=48000:d=120",
                      device: device)
    }

    private init(wave: String, source: String, device: Int) throws {
        self.device = device
        // aplay with a one-second buffer, from a file made beforehand: a player that
        // underruns while the guest is busy encoding would put gaps into the "microphone".
        if !FileManager.default.fileExists(atPath: wave) {
            _ = try Probe.tool("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", source, "-ac", "2", "-c:a", "pcm_s16le", wave])
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

    /// When the player's sample 0 reached the card, on CLOCK_MONOTONIC, in seconds: the
    /// playback's `trigger_time` in /proc (alsa-lib's hw plug-in asks the kernel for
    /// monotonic stamps), the instant the card started playing the buffer aplay had
    /// filled; from then on the loopback card hands each sample to its capture side as
    /// it plays it (a player that underran has moved on: check ``underruns``). A stamp
    /// nearer CLOCK_REALTIME than the monotonic clock is moved onto the monotonic clock.
    func playOrigin() throws -> Double {
        var realtime = timespec(), monotonic = timespec()
        clock_gettime(CLOCK_REALTIME, &realtime)
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        let wall = Double(realtime.tv_sec) + Double(realtime.tv_nsec) / 1e9
        let steady = Double(monotonic.tv_sec) + Double(monotonic.tv_nsec) / 1e9
        let status = try String(contentsOfFile: "/proc/asound/card0/pcm\(device)p/sub0/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("trigger_time") }, "no trigger_time in \(status)")
        var trigger = try #require(line.split(separator: ":").last.flatMap { Double($0.trimmingCharacters(in: .whitespaces)) },
                                   "unreadable \(line)")
        if abs(trigger - wall) < abs(trigger - steady) { trigger -= wall - steady }
        return trigger
    }

    /// The playback's status as /proc shows it now, with both clocks, for messages.
    func statusText() -> String {
        var realtime = timespec(), monotonic = timespec()
        clock_gettime(CLOCK_REALTIME, &realtime)
        clock_gettime(CLOCK_MONOTONIC, &monotonic)
        let status = (try? String(contentsOfFile: "/proc/asound/card0/pcm\(device)p/sub0/status", encoding: .utf8)) ?? ""
        return "realtime \(realtime.tv_sec).\(realtime.tv_nsec), monotonic \(monotonic.tv_sec).\(monotonic.tv_nsec), "
            + status.split(separator: "\n").joined(separator: "; ")
    }

    deinit {
        // SIGKILL: aplay would drain its ALSA buffer on SIGTERM first.
        signaller?.send(SIGKILL)
        process.waitUntilExit()
        unlink(log)
    }
}
