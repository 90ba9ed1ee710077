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
            try Probe.expectStreamsEndTogether(saved, frameRate: 30)
        }

        /// Two busy loops take both cores of a 2-core machine, so the 4K encoder falls far
        /// behind and frames wait and drop in the capture queue while audio keeps coming;
        /// whichever way the recording ends, the audio must not have run ahead of the
        /// video (without the audio gate it ended seconds longer).
        @Test(arguments: ["max-size", "stop", "SIGINT", "SIGTERM", "max"])
        func bothStreamsEndTogetherUnderLoadWhateverEndsTheRecording(how: String) throws {
            let home = try Home()
            let loops = try (0..<2).map { _ in try BusyLoop() }
            defer { withExtendedLifetime(loops) {} }
            var arguments = Self.start + ["--quality", "3840x2160"]
            if how == "max-size" { arguments += ["--max-size", "1M"] }
            if how == "max" { arguments += ["--max", "2"] }
            let child = try VidrecProcess(arguments, home: home.path)
            #expect(child.waitForError(containing: "vidrec: recording"))
            if !how.hasPrefix("max") {
                try child.waitUntilRecorded(1.5)
                switch how {
                case "stop": #expect(try VidrecProcess.run(["stop"], home: home.path).code == 0)
                case "SIGINT": child.signal(SIGINT)
                default: child.signal(SIGTERM)
                }
            }
            let result = child.wait()
            #expect(result.code == 0, "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            try Probe.expectStreamsEndTogether(file, frameRate: 30)
            if how == "max" {
                let samples = try Probe.decodedAudio(file)
                #expect(abs(samples.count - 96_000) <= 1024, "exactly 2 s of audio: \(samples.count)")
            }
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
            // The removed recording's poster frame goes with it.
            #expect(Set(home.files(in: home.album + "/.thumbnails", ending: ".jpg")) ==
                    [home.album + "/.thumbnails/clip1.mp4.jpg", home.album + "/.thumbnails/clip2.mp4.jpg"])
        }

        @Test func scheduleQuotesForCronAndInstallsThroughCrontab() throws {
            let home = try Home()
            let printed = try VidrecProcess.run(["schedule", "*/15 * * * *", "--", "--quality", "low", "--max", "60", "--save",
                                                 "--name", "door %H%M"], home: home.path)
            #expect(printed.code == 0, "\(printed.err)")
            let line = printed.out.trimmingCharacters(in: .newlines)
            #expect(line.hasPrefix("*/15 * * * * \(VidrecProcess.binary) start --quality low --max 60 --save --name 'door \\%H\\%M' --log "))
            #expect(line.hasSuffix("/.local/state/vidrec/cron.log --quiet"), "quiet on success, nothing thrown away: \(line)")

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

        /// The printed line, run the way cron runs it (its own minimal environment, sh,
        /// `\%` turned back into `%`): it records, saves, prints nothing when all goes
        /// well and one line on stderr when it fails, and logs everything.
        @Test func aScheduledLineRunsAsCronRunsItQuietlyUnlessItFails() throws {
            let home = try Home()
            let log = home.path + "/mine.log"
            let printed = try VidrecProcess.run(["schedule", "*/5 * * * mon-fri", "--", "--camera", "test", "--mic", "test", "--quality", "low",
                                                 "--max", "1", "--save", "--name", "door-%H%M%S", "--log", log], home: home.path)
            #expect(printed.code == 0, "\(printed.err)")
            let line = printed.out.trimmingCharacters(in: .newlines)
            #expect(line.components(separatedBy: " --log ").count == 2, "one --log, the user's: \(line)")
            let command = line.split(separator: " ", maxSplits: 5).last.map(String.init)!.replacingOccurrences(of: "\\%", with: "%")
            let cron = Process()
            cron.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            cron.arguments = ["-i", "HOME=\(home.path)", "PATH=/usr/bin:/bin", "/bin/sh", "-c", command]
            let out = Pipe(), err = Pipe()
            (cron.standardOutput, cron.standardError, cron.standardInput) = (out, err, FileHandle.nullDevice)
            try cron.run()
            let printedOut = out.fileHandleForReading.readDataToEndOfFile(), printedErr = err.fileHandleForReading.readDataToEndOfFile()
            cron.waitUntilExit()
            #expect(cron.terminationStatus == 0, "\(String(decoding: printedErr, as: UTF8.self))")
            #expect(printedOut.isEmpty && printedErr.isEmpty, "nothing for cron to mail on success")
            let saved = home.files(in: home.album, ending: ".mp4")
            #expect(saved.count == 1 && saved[0].contains("/door-"), "\(saved)")
            #expect(try Probe.decodedFrameCount(saved[0]) == 15)
            let logged = try String(contentsOfFile: log, encoding: .utf8)
            #expect(logged.contains("reached maximum duration (1 s)") && logged.contains(saved[0]), "\(logged)")

            // A failure (the album is a file) prints one line on stderr, which cron mails.
            try FileManager.default.removeItem(atPath: home.album)
            try "not a folder".write(toFile: home.album, atomically: true, encoding: .utf8)
            let failing = Process()
            failing.executableURL = cron.executableURL
            failing.arguments = cron.arguments
            let failErr = Pipe()
            (failing.standardOutput, failing.standardError, failing.standardInput) = (FileHandle.nullDevice, failErr, FileHandle.nullDevice)
            try failing.run()
            let text = String(decoding: failErr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            failing.waitUntilExit()
            #expect(failing.terminationStatus == 73)
            #expect(text.hasPrefix("Error: album ") && text.split(separator: "\n").count == 1, "\(text)")
        }

        @Test func aNameOfTwoHundredBytesIsAcceptedAndSaved() throws {
            let home = try Home()
            let name = String(repeating: "n", count: 200)
            let result = try VidrecProcess.run(Self.start + ["--quality", "low", "--max", "0.5", "--save", "--as", name], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.out == home.album + "/\(name).mp4\n")
        }

        @Test func stopAsksWhichWhenSeveralAreRunningAndAllStopsThemAll() throws {
            let home = try Home()
            let first = try VidrecProcess(["start", "--camera", "test", "--mic", "none", "--quality", "low"], home: home.path)
            let second = try VidrecProcess(["start", "--camera", "test", "--mic", "none", "--quality", "low"], home: home.path)
            try first.waitUntilRecorded(0.5)
            try second.waitUntilRecorded(0.5)
            let ask = try VidrecProcess.run(["stop"], home: home.path)
            #expect(ask.code == 64)
            #expect(ask.err.hasPrefix("Error: 2 recordings are running: ") && ask.err.contains("say which with 'vidrec stop ID', or stop them all with --all"), "\(ask.err)")
            #expect(first.process.isRunning && second.process.isRunning, "nothing was stopped")
            let all = try VidrecProcess.run(["stop", "--all"], home: home.path)
            #expect(all.code == 0, "\(all.err)")
            #expect(all.out.split(separator: "\n").count == 2)
            #expect(first.wait().code == 0 && second.wait().code == 0)
        }

        @Test func recoverTurnsAKilledRecordingIntoAFinishedOne() throws {
            let home = try Home()
            let recover = try VidrecProcess.killAndRecover(Array(Self.start.dropFirst()) + ["--quality", "low"], after: 2, home: home.path)
            #expect(recover.code == 0, "\(recover.err)")
            #expect(recover.out.hasPrefix("recovered "))
            let rows = try home.pendingRows()
            #expect(rows.count == 1 && rows[0]["state"] as? String == "finished")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            #expect(!file.contains(".partial."))
            #expect(try Probe.topLevelBoxes(file).prefix(2) == ["ftyp", "moov"])
            #expect(try Probe.decodedFrameCount(file) >= 15)
            #expect(home.files(in: home.pending, ending: ".lock").isEmpty, "the stale lock is cleared")
            // The last fragment may hold more of one stream: recovery trims both to their
            // common end, as a stopped recording ends.
            try Probe.expectStreamsEndTogether(file, frameRate: 15)
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
            let pid = try #require(home.recordingPID())
            // vidrec reset the disposition it inherited: SIGINT is no longer ignored.
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            let ignoredMask = status.split(separator: "\n").first { $0.hasPrefix("SigIgn:") }
                .flatMap { UInt64($0.split(separator: "\t").last ?? "", radix: 16) }
            #expect(ignoredMask.map { $0 & (1 << (UInt64(SIGINT) - 1)) == 0 } == true, "SigIgn: \(String(describing: ignoredMask))")
            _ = try Home.waitUntilRecorded(1, pid: pid, home: home.path) { shell.isRunning }
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
            // Once flock holds the lock, a shared lock cannot be taken.
            let lockPath = pending + "/20260101-000000.lock"
            try #require(Poll.until { () -> Bool? in
                let fd = open(lockPath, O_RDONLY)
                guard fd >= 0 else { return nil }
                defer { close(fd) }
                return flock(fd, LOCK_SH | LOCK_NB) != 0 ? true : nil
            } == true)
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
            try KilledSave.expectWholeInOnePlace(home: home, album: album, delays: [0.0, 0.002, 0.005, 0.01, 0.02, 0.05, 1.0])
        }

        @Test func aSecondCtrlCAbortsAndKeepsTheRecordingAsInterrupted() throws {
            let home = try Home()
            let child = try VidrecProcess(Self.start + ["--quality", "high"], home: home.path)
            #expect(child.waitForError(containing: "vidrec: recording"))
            // Finishing is quick (the encoder's flush and an index): with both cores
            // taken, the encoder falls a second behind, and finishing first writes the
            // frames queued for it, which leaves seconds, not milliseconds, for the second
            // Ctrl-C to land in.
            let loops = try (0..<2).map { _ in try BusyLoop() }
            try child.waitUntilRecorded(1)
            child.signal(SIGINT)
            // The first Ctrl-C has been taken (vidrec says so); hold the process while the
            // second is sent, so that it lands before the file could be finished.
            // (With encoding behind, as here, the line also says how much is still to encode.)
            #expect(child.waitForError(containing: "(Ctrl-C again aborts)"))
            child.signal(SIGSTOP)
            // A deliberate second Ctrl-C comes at least half a second after the first
            // (sooner, it is the same request sent twice, as by GNU timeout): the
            // process is stopped, so it lands when the process resumes, past the window.
            Thread.sleep(forTimeInterval: 0.6)
            child.signal(SIGINT)
            child.signal(SIGCONT)
            let result = child.wait()
            withExtendedLifetime(loops) {}
            #expect(result.code == 130, "\(result.err)")
            #expect(result.err.contains("vidrec: stopping (SIGINT); finishing the file"))
            #expect(result.err.contains("vidrec: aborted; the recording so far is kept as interrupted: 'vidrec save' recovers it"))
            let rows = try home.pendingRows()
            #expect(rows.first?["state"] as? String == "interrupted")
        }

        /// GNU timeout sends its signal to vidrec and to its own process group, which
        /// vidrec is in: one request that arrives as two SIGINTs at once. It stops the
        /// recording and finishes the file; it is not a second Ctrl-C.
        @Test func timeoutsTwoSIGINTsFinishTheRecordingAndNeverAbortIt() throws {
            let home = try Home()
            let timeout = Process()
            timeout.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
            // The limit is far off: SIGALRM makes timeout act as if it had run out.
            timeout.arguments = ["--preserve-status", "-s", "INT", "600", VidrecProcess.binary] + Self.start + ["--quality", "low"]
            timeout.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin"]
            let stderr = Pipe()
            timeout.standardError = stderr
            timeout.standardOutput = FileHandle.nullDevice
            timeout.standardInput = FileHandle.nullDevice
            try timeout.run()
            let pid = try #require(home.recordingPID())
            _ = try Home.waitUntilRecorded(1, pid: pid, home: home.path) { timeout.isRunning }
            kill(timeout.processIdentifier, SIGALRM)
            let err = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            timeout.waitUntilExit()
            #expect(timeout.terminationStatus == 0, "\(err)")
            #expect(err.components(separatedBy: "vidrec: stopping (SIGINT); finishing the file").count == 2, "\(err)")
            #expect(!err.contains("aborted"))
            let rows = try home.pendingRows()
            #expect(rows.first?["state"] as? String == "finished")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            try Probe.expectStreamsEndTogether(file, frameRate: 15)
        }

        /// x264's slowest settings at 720p, which no machine encodes at 30 frames a second:
        /// the encoder's queue fills and frames drop. vidrec says so once, as it happens,
        /// with the fix, and `vidrec status` counts them.
        @Test func aMachineThatCannotEncodeInTimeIsToldOnceWithTheFix() throws {
            let home = try Home()
            let preset = home.path + "/slow.json"
            try #"""
            { "description": "more than any machine encodes in real time",
              "width": 1280, "height": 720, "frameRate": 30, "container": "mp4",
              "video": { "codec": "libx264", "speed": "placebo", "crf": 20, "keyframeInterval": 30, "pixelFormat": "yuv420p" },
              "audio": { "codec": "aac", "sampleRate": 48000, "channels": 2, "bitRate": "128k" } }
            """#.write(toFile: preset, atomically: true, encoding: .utf8)
            let child = try VidrecProcess(Self.start + ["--quality", preset], home: home.path)
            let warning = "vidrec: warning: encoding cannot keep up with the camera on this machine: "
            #expect(child.waitForError(containing: warning))
            // The state file follows the line (both come from the same snapshot).
            let row = try Poll.until { () -> [String: Any]? in
                let status = try VidrecProcess.run(["status", "--json"], home: home.path)
                let rows = try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [[String: Any]]
                return rows?.first.flatMap { ($0["encodingDroppedFrames"] as? Int ?? 0) > 0 ? $0 : nil }
            }
            let counted = try #require(row)
            #expect(counted["droppedFrames"] as? Int == counted["encodingDroppedFrames"] as? Int, "\(counted)")
            // Frames go on dropping; the warning is not said again. Wait for a later
            // snapshot with more dropped, then look at everything said so far.
            let dropped = counted["encodingDroppedFrames"] as? Int ?? 0
            let more = try Poll.until { () -> Bool? in
                let status = try VidrecProcess.run(["status", "--json"], home: home.path)
                let rows = try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [[String: Any]]
                return (rows?.first?["encodingDroppedFrames"] as? Int ?? 0) > dropped ? true : nil
            }
            #expect(more == true, "no more frames dropped after \(dropped)")
            // The plain `vidrec status` says it too, beside how far encoding is behind.
            let text = try VidrecProcess.run(["status"], home: home.path).out
            #expect(text.range(of: #"frames, [0-9]+ dropped, .*, encoding [0-9.]+ s behind"#, options: .regularExpression) != nil, "\(text)")
            child.signal(SIGKILL)
            let result = child.wait()
            #expect(result.err.components(separatedBy: warning).count == 2, "\(result.err)")
            let line = try #require(result.err.split(separator: "\n").first { $0.hasPrefix(warning) })
            #expect(line.hasSuffix("(counted; the sound is kept whole); a smaller --quality, or fewer busy programs beside vidrec, keeps every frame"))
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
