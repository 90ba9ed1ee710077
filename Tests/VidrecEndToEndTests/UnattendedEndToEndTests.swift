import Foundation
import Glibc
import Testing

extension EndToEndTests {
    /// Limits, crash recovery, stopping and unattended use, on the real binary with the
    /// built-in test sources.
    @Suite struct UnattendedEndToEndTests {
        static let start = ["start", "--camera", "test", "--mic", "test"]

        @Test func maxSizeStopsBeforeTheFileWouldExceedIt() throws {
            let home = try Home()
            let result = try VidrecProcess.run(Self.start + ["--quality", "high", "--max-size", "200K", "--save"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("reached maximum file size (200 KB)"))
            let saved = result.out.trimmingCharacters(in: .newlines)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: saved)[.size] as? Int)
            #expect(size <= 200_000)
            #expect(size >= 100_000, "the limit is used, not wasted: \(size) bytes")
            let streams = try Probe.streams(saved)
            let video = try #require(streams[0].duration), audio = try #require(streams[1].duration)
            #expect(abs(video - audio) <= 1.0 / 30 + 1024.0 / 48000, "both streams end together")
        }

        @Test func aFreeSpaceFloorAboveWhatIsFreeRefusesToStart() throws {
            let home = try Home()
            let result = try VidrecProcess.run(Self.start + ["--min-free", "900T", "--max", "1"], home: home.path)
            #expect(result.code == 74)
            #expect(result.err.hasPrefix("Error: only "))
            #expect(result.err.contains("below the floor of 900000.00 GB; free space, or lower it with --min-free"))
        }

        @Test func nameTemplateAndLogFileWork() throws {
            let home = try Home()
            let log = home.path + "/vidrec.log"
            let result = try VidrecProcess.run(Self.start + ["--quality", "low", "--max", "1", "--save", "--name", "door-%Y", "--log", log],
                                               home: home.path)
            #expect(result.code == 0, "\(result.err)")
            let year = Calendar.current.component(.year, from: Date())
            #expect(result.out == home.album + "/door-\(year).mp4\n")
            let text = try String(contentsOfFile: log, encoding: .utf8)
            let lines = text.split(separator: "\n")
            #expect(lines.contains { $0.hasSuffix("reached maximum duration (1 s): 1.000 s, 15 frames, " + $0.split(separator: ", ").last!) })
            #expect(lines.allSatisfy { $0.range(of: #"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d vidrec: "#, options: .regularExpression) != nil })
        }

        @Test func keepRemovesOnlyVidrecsOldestRecordingsFromTheAlbum() throws {
            let home = try Home()
            try FileManager.default.createDirectory(atPath: home.album, withIntermediateDirectories: true)
            try "mine".write(toFile: home.album + "/holiday.mp4", atomically: true, encoding: .utf8)
            var saved: [String] = []
            for index in 0..<3 {
                let result = try VidrecProcess.run(Self.start + ["--quality", "low", "--max", "0.5", "--save", "--as", "clip\(index)", "--keep", "2"],
                                                   home: home.path)
                #expect(result.code == 0, "\(result.err)")
                saved.append(result.out.trimmingCharacters(in: .newlines))
            }
            let left = Set(home.files(in: home.album, ending: ".mp4"))
            #expect(left == [home.album + "/holiday.mp4", saved[1], saved[2]])
        }

        @Test func scheduleQuotesForCronAndInstallsThroughCrontab() throws {
            let home = try Home()
            let printed = try VidrecProcess.run(["schedule", "*/15 * * * *", "--", "--quality", "low", "--max", "60", "--save",
                                                 "--name", "door %H%M"], home: home.path)
            #expect(printed.code == 0, "\(printed.err)")
            let line = printed.out.trimmingCharacters(in: .newlines)
            #expect(line.hasPrefix("*/15 * * * * \(VidrecProcess.binary) start --quality low --max 60 --save --name 'door \\%H\\%M' --log "))
            #expect(line.hasSuffix("/.local/state/vidrec/cron.log >/dev/null 2>&1"))

            // A stand-in crontab program that keeps the table in a file, so the test never
            // touches the machine's real crontab.
            let table = home.path + "/crontab.txt", fake = home.path + "/crontab"
            try "#!/bin/sh\nif [ \"$1\" = -l ]; then cat \(table) 2>/dev/null || exit 1; else cat > \(table); fi\n"
                .write(toFile: fake, atomically: true, encoding: .utf8)
            chmod(fake, 0o755)
            try "0 3 * * * backup\n".write(toFile: table, atomically: true, encoding: .utf8)
            for _ in 0..<2 {
                let install = try VidrecProcess.run(["schedule", "@hourly", "--install", "--", "--quality", "low", "--max", "5"],
                                                    home: home.path, environment: ["VIDREC_CRONTAB": fake])
                #expect(install.code == 0, "\(install.err)")
            }
            let lines = try String(contentsOfFile: table, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 2, "the old line is kept and the new one added once: \(lines)")
            #expect(lines[0] == "0 3 * * * backup")
            #expect(lines[1].hasPrefix("@hourly \(VidrecProcess.binary) start --quality low --max 5 --log "))
        }

        @Test func recoverTurnsAKilledRecordingIntoAFinishedOne() throws {
            let home = try Home()
            let child = try VidrecProcess(Self.start + ["--quality", "low"], home: home.path)
            #expect(child.waitForError(containing: "vidrec: recording"))
            Thread.sleep(forTimeInterval: 2.5)
            child.signal(SIGKILL)
            _ = child.wait()
            let recover = try VidrecProcess.run(["recover"], home: home.path)
            #expect(recover.code == 0, "\(recover.err)")
            #expect(recover.out.hasPrefix("recovered "))
            let rows = try home.pendingRows()
            #expect(rows.count == 1 && rows[0]["state"] as? String == "finished")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            #expect(!file.contains(".partial."))
            #expect(try Probe.topLevelBoxes(file).prefix(2) == ["ftyp", "moov"])
            #expect(try Probe.decodedFrameCount(file) >= 15)
            #expect(home.files(in: home.pending, ending: ".lock").isEmpty, "the stale lock is cleared")
        }

        @Test func aBackgroundJobWithSIGINTIgnoredStillStopsOnSIGINTAndStop() throws {
            let home = try Home()
            // A non-interactive shell starts background jobs with SIGINT ignored.
            let script = "\(VidrecProcess.binary) start --camera test --mic test --quality low & wait"
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/bash")
            shell.arguments = ["-c", script]
            shell.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin"]
            shell.standardError = FileHandle.nullDevice
            try shell.run()
            var pid: Int32 = 0
            for _ in 0..<100 where pid == 0 {
                Thread.sleep(forTimeInterval: 0.1)
                if let sidecar = home.files(in: home.pending, ending: ".json").first,
                   let json = try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sidecar))) as? [String: Any] {
                    pid = json["pid"] as? Int32 ?? 0
                }
            }
            try #require(pid > 0)
            // vidrec reset the disposition it inherited: SIGINT is no longer ignored.
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            let ignoredMask = status.split(separator: "\n").first { $0.hasPrefix("SigIgn:") }
                .flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
            #expect(ignoredMask.map { $0 & (1 << (UInt64(SIGINT) - 1)) == 0 } == true, "SigIgn: \(String(describing: ignoredMask))")
            Thread.sleep(forTimeInterval: 1.5)
            kill(pid, SIGINT)
            shell.waitUntilExit()
            #expect(shell.terminationStatus == 0)
            let rows = try home.pendingRows()
            #expect(rows.first?["state"] as? String == "finished")
        }

        @Test func stopNeverSignalsAProcessThatIsNotTheRecording() throws {
            let home = try Home()
            let pending = home.pending
            try FileManager.default.createDirectory(atPath: pending, withIntermediateDirectories: true)
            // A crash left a sidecar whose PID now belongs to another program, which also
            // happens to hold the lock file.
            let holder = Process()
            holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
            holder.arguments = [pending + "/20260101-000000.lock", "sleep", "30"]
            try holder.run()
            defer { holder.terminate() }
            Thread.sleep(forTimeInterval: 0.3)
            let sidecar = """
            {"id": "20260101-000000", "preset": "low", "presetFile": "", "camera": "test pattern", "container": "mp4",
             "startTime": "2026-01-01T00:00:00Z", "state": "recording", "pid": \(holder.processIdentifier)}
            """
            try sidecar.write(toFile: pending + "/20260101-000000.json", atomically: true, encoding: .utf8)
            let stop = try VidrecProcess.run(["stop"], home: home.path)
            #expect(stop.code == 75)
            #expect(stop.err == "Error: recording 20260101-000000 is locked but pid \(holder.processIdentifier) is not a vidrec process; not signalling it\n")
            #expect(holder.isRunning)
        }

        @Test func killingSaveNeverLeavesHalfARecordingInTheAlbum() throws {
            // The album is on another file system, so saving copies, syncs and renames;
            // save is killed at a different moment each round.
            let home = try Home()
            let album = "/dev/shm/vidrec-album-\(UUID().uuidString)"
            defer { try? FileManager.default.removeItem(atPath: album) }
            let recorded = try VidrecProcess.run(Self.start + ["--quality", "640x480", "--max", "2"], home: home.path)
            #expect(recorded.code == 0, "\(recorded.err)")
            let original = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let frames = try Probe.decodedFrameCount(original)
            var saved = false
            for delay in [0.0, 0.002, 0.005, 0.01, 0.02, 0.05, 1.0] where !saved {
                let save = try VidrecProcess(["save", "--album", album], home: home.path)
                Thread.sleep(forTimeInterval: delay)
                save.signal(SIGKILL)
                _ = save.wait()
                let inAlbum = home.files(in: album, ending: ".mp4")
                let pending = home.files(in: home.pending, ending: ".mp4")
                // Either still pending, or whole in the album; never both, never neither.
                #expect(inAlbum.count + pending.count == 1, "album \(inAlbum), pending \(pending)")
                if let file = inAlbum.first {
                    #expect(try Probe.decodedFrameCount(file) == frames)
                    saved = true
                }
            }
            if !saved {
                let save = try VidrecProcess.run(["save", "--album", album], home: home.path)
                #expect(save.code == 0, "\(save.err)")
            }
            #expect(home.files(in: album, ending: ".mp4").count == 1)
            #expect(try FileManager.default.contentsOfDirectory(atPath: album).filter { $0.hasPrefix(".") }.isEmpty,
                    "no abandoned hidden copy")
        }

        @Test func aSecondCtrlCAbortsAndKeepsTheRecordingAsInterrupted() throws {
            let home = try Home()
            // At 1080p, finishing (encoder flush, index) takes long enough for a second
            // Ctrl-C 30 ms after the first to land while the first is being handled.
            let child = try VidrecProcess(Self.start + ["--quality", "high"], home: home.path)
            #expect(child.waitForError(containing: "vidrec: recording"))
            Thread.sleep(forTimeInterval: 2)
            child.signal(SIGINT)
            Thread.sleep(forTimeInterval: 0.03)
            child.signal(SIGINT)
            let result = child.wait()
            #expect(result.code == 130, "\(result.err)")
            #expect(result.err.contains("vidrec: aborted; the recording so far is kept as interrupted: 'vidrec save' recovers it"))
            let rows = try home.pendingRows()
            #expect(rows.first?["state"] as? String == "interrupted")
        }

        @Test func albumMaxSizeRemovesTheOldestOfVidrecsRecordings() throws {
            let home = try Home()
            try FileManager.default.createDirectory(atPath: home.album, withIntermediateDirectories: true)
            try Data(count: 300_000).write(to: URL(fileURLWithPath: home.album + "/mine.mp4"))
            var saved: [String] = []
            for index in 0..<4 {
                let result = try VidrecProcess.run(Self.start + ["--quality", "640x480", "--max", "2", "--save", "--as", "c\(index)",
                                                                 "--album-max-size", "100K"], home: home.path)
                #expect(result.code == 0, "\(result.err)")
                saved.append(result.out.trimmingCharacters(in: .newlines))
            }
            let left = home.files(in: home.album, ending: ".mp4").filter { $0 != home.album + "/mine.mp4" }
            let sizes = try left.map { try #require(try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int) }
            #expect(left.contains(saved[3]), "the newest is always kept")
            #expect(!left.contains(saved[0]), "the oldest went")
            #expect(left.count == 1 || sizes.reduce(0, +) <= 100_000, "\(left) \(sizes)")
            #expect(FileManager.default.fileExists(atPath: home.album + "/mine.mp4"), "files vidrec did not save are never removed")
        }

        @Test func savingNeverFollowsAPlantedSymbolicLink() throws {
            let home = try Home()
            let target = home.path + "/precious.txt"
            try "precious".write(toFile: target, atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(atPath: home.album, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: home.album + "/clip.mp4", withDestinationPath: target)
            let result = try VidrecProcess.run(Self.start + ["--quality", "low", "--max", "1", "--save", "--as", "clip"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.out == home.album + "/clip (2).mp4\n")
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious")

            // A link planted in the pending area in place of a recording is refused.
            let second = try VidrecProcess.run(Self.start + ["--quality", "low", "--max", "1"], home: home.path)
            #expect(second.code == 0)
            let media = try #require(home.files(in: home.pending, ending: ".mp4").first)
            try FileManager.default.removeItem(atPath: media)
            try FileManager.default.createSymbolicLink(atPath: media, withDestinationPath: target)
            let save = try VidrecProcess.run(["save"], home: home.path)
            #expect(save.code != 0)
            #expect(save.err.hasPrefix("Error: "), "\(save.err)")
            #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious")
            #expect(home.files(in: home.album, ending: ".mp4").count == 2, "the planted link and the first save")
        }

        @Test func anInstalledBinaryFindsItsPresetsBesideIt() throws {
            let home = try Home()
            let prefix = home.path + "/prefix"
            try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: prefix + "/share/vidrec", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: VidrecProcess.binary, toPath: prefix + "/bin/vidrec")
            try FileManager.default.copyItem(atPath: VidrecProcess.presets, toPath: prefix + "/share/vidrec/presets")
            let result = try Probe.tool(prefix + "/bin/vidrec", ["presets"], environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"])
            let text = String(decoding: result, as: UTF8.self)
            #expect(text.contains(prefix + "/bin/../share/vidrec/presets/high.json") || text.contains(prefix + "/share/vidrec/presets/high.json"), "\(text)")
        }

        @Test func onATerminalOneLiveStatusLineIsShown() throws {
            let home = try Home()
            // `script` gives vidrec a pseudo-terminal.
            let command = "\(VidrecProcess.binary) start --camera test --mic test --quality low --max 2"
            let result = try Probe.tool("script", ["-qefc", command, "/dev/null"], environment: ["HOME": home.path, "PATH": "/usr/bin:/bin", "TERM": "xterm"])
            let text = String(decoding: result, as: UTF8.self)
            #expect(text.contains("\r\u{1B}[K● REC 00:0"))
            #expect(text.contains(" / 00:02.0  "))
            #expect(text.contains("reached maximum duration (2 s)"))
        }

        @Test func whenEncodingFallsBehindVideoFramesAreDroppedButNoAudio() throws {
            let home = try Home()
            let result = try VidrecProcess.run(Self.start + ["--quality", "3840x2160", "--max", "3"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let samples = try Probe.decodedAudio(file)
            #expect(abs(samples.count - 144_000) <= 1024, "all 3 s of audio: \(samples.count) samples")
            let json = try home.sidecar()
            let dropped = try #require(json["droppedFrames"] as? Int)
            #expect(try Probe.decodedFrameCount(file) + dropped == 90)
        }
    }
}
