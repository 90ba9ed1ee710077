import Foundation
import Glibc
import Testing

extension KernelDriverTests {
    /// Devices and disks that misbehave, with real kernel drivers in the VM
    /// (`vm/device-tests`): vivid's error-injection controls, a tiny tmpfs, SIGSTOP.
    @Suite struct DeviceFaultEndToEndTests {
        static func run(_ path: String, _ arguments: [String]) throws -> Int32 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }

        static func setControl(_ device: String, _ control: String) throws {
            try #require(try run("/usr/bin/v4l2-ctl", ["-d", device, "--set-ctrl", control]) == 0, "v4l2-ctl \(control)")
        }

        /// A tmpfs of `size` mounted for the test, as vidrec's state folder.
        final class TinyDisk {
            let path: String
            init(size: String) throws {
                path = NSTemporaryDirectory() + "tiny-\(UUID().uuidString)"
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                try #require(try DeviceFaultEndToEndTests.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path]) == 0)
            }
            var free: Int64 {
                var info = statvfs()
                statvfs(path, &info)
                return Int64(info.f_bavail) * Int64(info.f_frsize)
            }
            /// Leaves about `bytes` free.
            func fill(leaving bytes: Int64) throws {
                let filler = Data(count: Int(max(0, free - bytes)))
                try filler.write(to: URL(fileURLWithPath: path + "/filler"))
            }
            func unfill() { unlink(path + "/filler") }
            deinit { _ = try? DeviceFaultEndToEndTests.run("/bin/umount", [path]) }
        }

        static let start = ["start", "--camera", "test", "--mic", "test", "--quality", "low"]

        @Test func aFullDiskKeepsWhatWasRecordedPlayableAndSaysSo() throws {
            let home = try Home(), disk = try TinyDisk(size: "4m")
            try disk.fill(leaving: 160_000)
            let state = ["XDG_STATE_HOME": disk.path + "/state"]
            let result = try VidrecProcess.run(Self.start + ["--min-free", "0"], home: home.path, environment: state)
            #expect(result.code == 74, "\(result.err)")
            #expect(result.err.contains("No space left on device"), "\(result.err)")
            #expect(result.err.contains("kept in pending"))
            // Finishing writes only the index, into the room kept for it at the front of
            // the file: the full disk does not stop it, and the fragment the disk cut
            // short is left out, both streams trimmed to their common end.
            let pending = disk.path + "/state/vidrec/pending"
            let file = try #require(home.files(in: pending, ending: ".mp4").first)
            #expect(!file.contains(".partial."), "finalized on the full disk")
            let playable = try Probe.decodedFrameCount(file)
            #expect(playable >= 15, "the fragments written before the disk filled play: \(playable) frames")
            try Probe.expectStreamsEndTogether(file, frameRate: 15)
            // Saving it moves it to the album, on another disk.
            let save = try VidrecProcess.run(["save"], home: home.path, environment: state)
            #expect(save.code == 0, "\(save.err)")
            let saved = save.out.trimmingCharacters(in: .newlines)
            #expect(try Probe.decodedFrameCount(saved) == playable)
        }

        @Test func theFreeSpaceFloorStopsTheRecordingBeforeTheDiskIsFull() throws {
            let home = try Home(), disk = try TinyDisk(size: "8m")
            try disk.fill(leaving: 2_000_000)
            let floor = disk.free - 150_000
            let state = ["XDG_STATE_HOME": disk.path + "/state"]
            let result = try VidrecProcess.run(Self.start + ["--min-free", "\(floor)"], home: home.path, environment: state)
            #expect(result.code == 74, "\(result.err)")
            #expect(result.err.contains("stopped early: only "), "\(result.err)")
            #expect(disk.free >= floor - 20_000, "the floor was kept, give or take a fragment")
            let file = try #require(home.files(in: disk.path + "/state/vidrec/pending", ending: ".mp4").first)
            #expect(!file.contains(".partial."), "finalized")
            #expect(try Probe.decodedFrameCount(file) >= 15)
            try Probe.expectStreamsEndTogether(file, frameRate: 15)
        }

        /// vivid's disconnect takes the node away (opening it fails with ENODEV) until
        /// its last user closes it; the test holds it open, so the camera does not come
        /// back: the recording waits `--reconnect`'s 2 s for it, with its last picture,
        /// then ends with the file finalized. `--on-failure` runs when the camera goes,
        /// and again when the recording ends for it.
        @Test func aCameraThatDisappearsAndDoesNotComeBackEndsTheRecordingWithTheFileFinalized() throws {
            let home = try Home()
            let child = try VidrecProcess(["start", "--camera", "1", "--mic", "none", "--quality", "low", "--reconnect", "2",
                                           "--on-failure", "env"], home: home.path)
            #expect(child.waitForError(containing: "vidrec: recording"))
            try child.waitUntilRecorded(1.5)
            let holder = try #require(FileHandle(forReadingAtPath: "/dev/video1"), "vivid's /dev/video1 opens")
            try Self.setControl("/dev/video1", "disconnect=1")
            let result = child.wait()
            try holder.close()
            // Put vivid back for the tests that follow.
            let modules = ProcessInfo.processInfo.environment["VIDREC_VM_MODULES"] ?? ""
            _ = try Self.run("/sbin/modprobe", ["-d", modules, "-r", "vivid"])
            _ = try Self.run("/bin/bash", ["vm/guest-setup"])
            #expect(result.code == 69, "\(result.err)")
            #expect(result.err.contains("vidrec: camera /dev/video1 (vivid) is gone: disappeared (it was unplugged or its driver stopped); waiting up to 2 s"),
                    "\(result.err)")
            #expect(result.err.contains("vidrec: camera /dev/video1 (vivid) did not come back within 2 s (the last try to open it: "),
                    "\(result.err)")
            #expect(result.err.contains("camera /dev/video1 (vivid) stopped: camera /dev/video1 disappeared"), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            #expect(!file.contains(".partial."))
            // What it recorded, then the 2 s it waited, holding the last picture.
            #expect(try Probe.formatDuration(file) >= 3.5)
            let sidecar = try home.sidecar()
            #expect(sidecar["state"] as? String == "failed")
            #expect((sidecar["cameraGapFrames"] as? Int ?? 0) >= 25, "\(sidecar)")
            #expect(result.err.contains("frames hold its last picture; back never)"), "the end line counts the gap: \(result.err)")
            let hooks = EndToEndTests.HookEndToEndTests.runs(result.err, hook: "on-failure")
            try #require(hooks.count == 2, "\(result.err)")
            #expect(hooks[0]["VIDREC_EVENT"] == "camera-gone" && hooks[0]["VIDREC_CAMERA"] == "/dev/video1 (vivid)", "\(hooks[0])")
            #expect(hooks[0]["VIDREC_REASON"]?.hasPrefix("disappeared") == true, "\(hooks[0])")
            #expect(hooks[1]["VIDREC_EVENT"] == "failed" && hooks[1]["VIDREC_EXIT_CODE"] == "69", "\(hooks[1])")
            #expect(hooks[1]["VIDREC_REASON"]?.contains("camera /dev/video1 (vivid) stopped") == true, "\(hooks[1])")
            #expect(hooks[1]["VIDREC_ID"] == sidecar["id"] as? String, "\(hooks[1])")
        }

        /// Records vivid's first camera and a 440 Hz tone with `options`, and sets off
        /// vivid's fatal streaming error 1.5 s in; returns once vidrec has ended.
        static func recordThroughAStreamingError(_ options: [String]) throws -> (Home, (code: Int32, out: String, err: String), TonePlayer) {
            let home = try Home()
            let tone = try TonePlayer(frequency: 440)
            let child = try VidrecProcess(["start", "--camera", "0", "--mic", "hw:Loopback,1,0", "--quality", "low"] + options,
                                          home: home.path)
            #expect(child.waitForError(containing: "vidrec: recording"))
            try child.waitUntilRecorded(1.5)
            try Self.setControl("/dev/video0", "inject_fatal_streaming_error=1")
            return (home, child.wait(), tone)
        }

        /// With `--reconnect 0`, a camera's failure ends the recording at once.
        @Test func aFatalStreamingErrorIsReportedAndNeitherStreamRunsOn() throws {
            let (home, result, _) = try Self.recordThroughAStreamingError(["--reconnect", "0"])
            #expect(result.code == 69, "\(result.err)")
            #expect(result.err.contains("camera /dev/video0 (vivid) stopped"), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            #expect(try Probe.formatDuration(file) >= 1.5)
            try Probe.expectStreamsEndTogether(file, frameRate: 15)
        }

        /// A camera whose stream fails (vivid's fatal streaming error) is opened again
        /// and goes on in the same movie: the recording ends at `--max`, to the frame,
        /// the slots it missed hold its last picture (counted in the sidecar), and the
        /// microphone's tone runs on through the gap.
        @Test func aCameraWhoseStreamFailsComesBackIntoTheSameMovie() throws {
            // Long enough that the fault comes well before the end, even in a starved guest
            // where each `vidrec status` the wait runs takes seconds.
            let seconds = 20
            // The house hears of it too (--mqtt, Debian's mosquitto in the guest).
            let folder = NSTemporaryDirectory() + "vidrec-mqtt-\(UUID().uuidString)"
            let broker = try MQTTBroker(folder: folder)
            let watcher = try MQTTWatcher(broker)
            let (home, result, tone) = try Self.recordThroughAStreamingError(["--max", "\(seconds)", "--mqtt", broker.url("vidrec/vivid"),
                                                                              "--mqtt-credentials", try broker.credentials("camera")])
            let gone = try watcher.wait(for: "camera-gone") { $0.topic == "vidrec/vivid/event" && $0.json["event"] as? String == "camera-gone" }
            #expect((gone.message.json["camera"] as? String)?.hasPrefix("/dev/video0") == true, "\(gone.message.text)")
            let back = try watcher.wait(after: gone.index, for: "camera-back") {
                $0.topic == "vidrec/vivid/event" && $0.json["event"] as? String == "camera-back"
            }
            #expect((back.message.json["after"] as? Double ?? -1) >= 0, "\(back.message.text)")
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("vidrec: camera /dev/video0 (vivid) is gone: "), "\(result.err)")
            #expect(result.err.contains("vidrec: camera /dev/video0 (vivid) is back after "), "\(result.err)")
            #expect(result.err.contains("reached maximum duration (\(seconds) s)"), "\(result.err)")
            #expect(result.err.contains("frames hold its last picture; back once)"), "the end line counts the gap: \(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            #expect(abs(try Probe.formatDuration(file) - Double(seconds)) <= 1.0 / 15)
            try Probe.expectStreamsEndTogether(file, frameRate: 15)
            let sidecar = try home.sidecar()
            #expect(sidecar["cameraReturns"] as? Int == 1, "\(sidecar)")
            let gap = try #require(sidecar["cameraGapFrames"] as? Int, "\(sidecar)")
            #expect(gap >= 0 && gap < 90, "\(gap) slots held the last picture (none when it is back within a frame)")
            // Every slot is a frame: captured, held over the gap, or a counted drop.
            let frames = try Probe.decodedFrameCount(file)
            let dropped = try #require(sidecar["droppedFrames"] as? Int)
            let repeated = try #require(sidecar["repeatedFrames"] as? Int)
            #expect(frames - repeated + dropped == seconds * 15, "\(frames) frames, \(repeated) repeated, \(dropped) dropped, \(gap) held")
            // The sound is kept through the gap: the tone everywhere, no silent stretch.
            let samples = try Probe.decodedAudio(file)
            #expect(abs(samples.count - seconds * 48000) <= 1024)
            let heard = Probe.dominantFrequency(Array(samples[24000..<(seconds * 48000 - 24000)]), rate: 48000)
            #expect(abs(heard.hertz - 440) < 2, "the 440 Hz tone: \(heard)")
            if tone.underruns == 0 {
                let blocks = Probe.toneBlocks(Array(samples[4800...]), frequency: 440, rate: 48000)
                #expect(blocks.filter { $0.amplitude < 1000 }.isEmpty, "no silent block")
            }
        }

        @Test func droppedCameraBuffersKeepRealTimeAndAreCounted() throws {
            let home = try Home()
            try Self.setControl("/dev/video0", "percentage_of_dropped_buffers=20")
            defer { try? Self.setControl("/dev/video0", "percentage_of_dropped_buffers=0") }
            let result = try VidrecProcess.run(["start", "--camera", "0", "--mic", "none", "--quality", "low", "--max", "4"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains(" dropped ("), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let frames = try Probe.decodedFrameCount(file)
            let sidecar = try home.sidecar()
            let dropped = try #require(sidecar["droppedFrames"] as? Int)
            let repeated = try #require(sidecar["repeatedFrames"] as? Int)
            #expect(dropped >= 4, "about 20 % of 60 frames: \(dropped)")
            // Every slot holds a captured frame or is a counted drop (the last frame is
            // repeated into drops at the very end, so the movie lasts until the limit).
            #expect(frames - repeated + dropped == 60, "\(frames) frames, \(repeated) repeated, \(dropped) dropped")
            let duration = try Probe.formatDuration(file)
            #expect(abs(duration - 4.0) <= 1.0 / 15, "no speed-up: the movie lasts as long as the recording, not \(duration) s: \(result.err)")
        }

        /// A line of the ALSA status of card 0's PCM `device` (`pcm1c`, `pcm0p`).
        static func alsaStatus(_ device: String) -> String {
            (try? String(contentsOfFile: "/proc/asound/card0/\(device)/sub0/status", encoding: .utf8)) ?? ""
        }

        /// The loopback player's hardware position, in frames: the card's own clock.
        static func playerPosition() -> Int? {
            alsaStatus("pcm0p").split(separator: "\n").first { $0.hasPrefix("hw_ptr") }
                .flatMap { Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "") }
        }

        @Test func aStalledProcessOverrunsTheMicrophoneAndTheGapIsFilledInStep() throws {
            let home = try Home()
            let tone = try TonePlayer(frequency: 440)
            let child = try VidrecProcess(["start", "--camera", "0", "--mic", "hw:Loopback,1,0", "--quality", "low"], home: home.path)
            #expect(child.waitForError(containing: "vidrec: recording"))
            let before = try #require(try child.waitUntilRecorded(1))
            child.signal(SIGSTOP)
            // The microphone overruns (ALSA says XRUN for vidrec's capture stream); then
            // let the card's own clock run half a second further, so that audio is lost.
            #expect(Poll.until { Self.alsaStatus("pcm1c").contains("XRUN") ? true : nil } == true, "no overrun: \(Self.alsaStatus("pcm1c"))")
            let overrun = try #require(Self.playerPosition())
            #expect(Poll.until { (Self.playerPosition() ?? 0) - overrun >= 24_000 ? true : nil } == true)
            child.signal(SIGCONT)
            try child.waitUntilRecorded(before + 3)
            let stop = try VidrecProcess.run(["stop"], home: home.path)
            #expect(stop.code == 0, "\(stop.err)")
            let result = child.wait()
            #expect(result.code == 0, "\(result.err)")
            let sidecar = try home.sidecar()
            let overruns = sidecar["overruns"] as? Int ?? 0
            let silence = sidecar["insertedSilence"] as? Double ?? 0
            #expect(overruns >= 1, "\(result.err)")
            #expect(silence >= 0.5, "the lost time is filled: \(silence) s")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            try Probe.expectStreamsEndTogether(file, frameRate: 15)

            // The filled gap is one run of silence as long as the sidecar says; around it
            // the tone runs with an unbroken phase: nothing cut, nothing doubled.
            let samples = try Probe.decodedAudio(file)
            let blocks = Probe.toneBlocks(samples, frequency: 440, rate: 48000)
            let silent = blocks.indices.filter { $0 >= 5 && blocks[$0].amplitude < 1000 }
            let gap = try #require(silent.first.map { $0...silent.last! }, "no silent gap in the audio")
            #expect(silent.count == gap.count, "one run of silence: \(silent)")
            #expect(abs(Double(gap.count) * 0.02 - silence) <= 0.06, "gap \(Double(gap.count) * 0.02) s, sidecar \(silence) s")
            // The blocks at either edge of the gap hold tone and silence both, so their
            // phase means nothing. AAC spreads a step from tone to silence over its
            // 1024-sample frame (a busy run found the block before the edge one 18 %
            // louder and turned by 0.47 rad): two are left out on each side.
            let beforeGap = Array(blocks[5..<max(5, gap.lowerBound - 2)]), afterGap = Array(blocks[(gap.upperBound + 2)...])
            #expect(afterGap.count >= 50, "at least a second of tone after the gap")
            // On a loaded machine the drift correction may stretch audio a little.
            let stretched = sidecar["driftCorrection"] as? Double ?? 0
            let tolerance = Probe.phaseTolerance(frequency: 440, sidecar: sidecar)
            let jumpsBefore = Probe.phaseJumps(beforeGap, tolerance: tolerance)
            let jumpsAfter = Probe.phaseJumps(afterGap, tolerance: tolerance)
            // A player that underran broke the tone itself: its phase then says nothing.
            let underruns = tone.underruns
            if underruns == 0 {
                // What the blocks around the gap hold, for a failure's message.
                let edge = blocks[max(0, gap.lowerBound - 4)..<min(blocks.count, gap.lowerBound + 1)]
                    .map { String(format: "%.0f@%.2f", $0.amplitude, $0.phase) }.joined(separator: " ")
                #expect(jumpsBefore.isEmpty, "before the gap (\(beforeGap.count) blocks, \(stretched) s stretched, \(overruns) overruns, \(sidecar["droppedAudio"] ?? 0) s audio dropped, \(silence) s inserted, gap \(gap), blocks up to it \(edge)): jumps at \(jumpsBefore): \(Probe.describeBlocks(beforeGap, around: jumpsBefore))")
                #expect(jumpsAfter.isEmpty, "after the gap (\(stretched) s stretched, \(overruns) overruns): jumps at \(jumpsAfter)")
            }
            #expect(afterGap.allSatisfy { $0.amplitude >= 1000 }, "the tone is there after the gap")
        }
    }
}
