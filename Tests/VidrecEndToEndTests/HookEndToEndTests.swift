import Foundation
import Glibc
import Testing

extension EndToEndTests {
    /// `--on-saved`, `--on-event`, `--on-failure`: commands run on what happens, with
    /// the facts in their environment, their output in the log, a time limit, and never
    /// holding up the recording.
    @Suite struct HookEndToEndTests {
        static let start = ["start", "--camera", "test", "--mic", "test", "--quality", "low"]

        /// The `VIDREC_` variables each run of an `env` hook printed, in order: its lines
        /// on stderr are `vidrec: hook NAME (env): KEY=VALUE` (in the log after a time),
        /// and each run ends with its exit status.
        static func runs(_ stderr: String, hook name: String) -> [[String: String]] {
            var runs: [[String: String]] = []
            var current: [String: String] = [:]
            let prefix = "vidrec: hook \(name) (env)"
            for whole in stderr.split(separator: "\n") {
                guard let start = whole.range(of: prefix)?.lowerBound else { continue }
                let line = String(whole[start...])
                if line.hasPrefix(prefix + " exited with status 0") {
                    runs.append(current)
                    current = [:]
                } else if line.hasPrefix(prefix + ": VIDREC_"), let equals = line.firstIndex(of: "=") {
                    let key = line[line.index(line.startIndex, offsetBy: prefix.count + 2)..<equals]
                    current[String(key)] = String(line[line.index(after: equals)...])
                }
            }
            return runs
        }

        @Test func aSavedRecordingRunsItsHookWithTheFileAsOneArgument() throws {
            let home = try Home()
            let result = try VidrecProcess.run(Self.start + ["--max", "2", "--save", "--as", "front door",
                                                             "--on-saved", #"printf "[%s]\n" $VIDREC_FILE ${VIDREC_KIND} "$VIDREC_DURATION" x$VIDREC_ID"#],
                                               home: home.path)
            #expect(result.code == 0, "\(result.err)")
            let file = home.album + "/front door.mp4"
            #expect(result.out == file + "\n")
            let said = result.err.split(separator: "\n").filter { $0.hasPrefix("vidrec: hook on-saved (printf)") }.map(String.init)
            let duration = try Probe.formatDuration(file)
            #expect(abs(duration - 2) < 0.05)
            #expect(said.prefix(4) == ["vidrec: hook on-saved (printf): [\(file)]", "vidrec: hook on-saved (printf): [recording]",
                                       "vidrec: hook on-saved (printf): [2.000]", "vidrec: hook on-saved (printf): [x$VIDREC_ID]"],
                    "\(result.err)")
            #expect(said.last?.hasPrefix("vidrec: hook on-saved (printf) exited with status 0 after ") == true, "\(result.err)")
        }

        /// Each segment and each time-lapse photo runs the hook once, with its own facts,
        /// and the log file gets the hooks' lines even with `--quiet`.
        @Test func eachSegmentAndPhotoRunsTheHookOnceWithItsOwnFacts() throws {
            let home = try Home()
            let log = home.path + "/vidrec.log"
            let result = try VidrecProcess.run(Self.start + ["--segment", "1", "--max", "3", "--save", "--snap-every", "1",
                                                             "--on-saved", "env", "--quiet", "--log", log], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.isEmpty, "--quiet: \(result.err)")
            let logged = try String(contentsOfFile: log, encoding: .utf8)
            let runs = Self.runs(logged, hook: "on-saved")
            // With --quiet, the saved paths are in the log only.
            let saved = logged.split(separator: "\n").compactMap { line in
                line.range(of: "vidrec: saved to ").map { String(line[$0.upperBound...]) }
            }
            let movies = saved.filter { $0.hasSuffix(".mp4") }, photos = saved.filter { $0.hasSuffix(".jpg") }
            #expect(movies.count == 3 && photos.count >= 2, "\(saved)")
            #expect(runs.map { $0["VIDREC_FILE"] ?? "" }.sorted() == saved.sorted(), "\(logged)")
            for run in runs {
                let file = try #require(run["VIDREC_FILE"])
                #expect(run["VIDREC_EVENT"] == "saved" && run["VIDREC_PRESET"] == "low" && run["VIDREC_CAMERA"] == "test pattern", "\(run)")
                if file.hasSuffix(".mp4") {
                    #expect(run["VIDREC_KIND"] == "segment" && run["VIDREC_ALBUM"] == home.album, "\(run)")
                    #expect(file.hasSuffix("/vidrec-\(run["VIDREC_ID"] ?? "-").mp4"), "\(run)")
                    let duration = try #require(run["VIDREC_DURATION"].flatMap(Double.init), "\(run)")
                    #expect(abs(try Probe.formatDuration(file) - duration) < 0.07, "\(run)")
                } else {
                    #expect(run["VIDREC_KIND"] == "photo" && run["VIDREC_ALBUM"] == home.photos, "\(run)")
                }
            }
        }

        @Test func anEventRunsItsHookAtItsStartAndItsEnd() throws {
            let home = try Home()
            let recording = try VidrecProcess(Self.start + ["--pre", "1", "--post", "1", "--save", "--on-event", "env"], home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            try recording.waitUntilRecorded(2)
            let triggered = try VidrecProcess.run(["trigger"], home: home.path)
            #expect(triggered.code == 0, "\(triggered.err)")
            #expect(recording.waitForError(containing: "VIDREC_EVENT=event-end"))
            recording.signal(SIGINT)
            let ended = recording.wait()
            #expect(ended.code == 0, "\(ended.err)")
            let runs = Self.runs(ended.err, hook: "on-event")
            try #require(runs.count == 2, "\(ended.err)")
            let (begun, over) = (runs[0], runs[1])
            #expect(begun["VIDREC_EVENT"] == "event-start" && begun["VIDREC_INDEX"] == "1" && begun["VIDREC_FILE"] == nil, "\(begun)")
            #expect(over["VIDREC_EVENT"] == "event-end" && over["VIDREC_INDEX"] == "1" && over["VIDREC_ID"] == begun["VIDREC_ID"], "\(over)")
            let file = try #require(over["VIDREC_FILE"])
            #expect(ended.out == file + "\n")
            #expect(file.hasSuffix("/vidrec-\(begun["VIDREC_ID"] ?? "").mp4"))
            let duration = try #require(over["VIDREC_DURATION"].flatMap(Double.init))
            #expect(abs(try Probe.formatDuration(file) - duration) < 0.07, "\(over)")
            // The event's time is its media's start, as the file's own creation time says:
            // its pre-roll began before the trigger.
            let tags = try Probe.json(["-show_entries", "format_tags=creation_time", file])
            let created = ((tags["format"] as? [String: Any])?["tags"] as? [String: Any])?["creation_time"] as? String
            #expect(created?.prefix(19) == begun["VIDREC_TIME"]?.prefix(19), "\(String(describing: created)) \(begun)")
        }

        @Test func aRecordingThatCannotStartRunsTheFailureHookWithWhy() throws {
            let home = try Home()
            let result = try VidrecProcess.run(["start", "--camera", "/dev/video-none", "--mic", "test", "--on-failure", "env"], home: home.path)
            #expect(result.code == 69, "\(result.err)")
            let runs = Self.runs(result.err, hook: "on-failure")
            try #require(runs.count == 1, "\(result.err)")
            #expect(runs[0]["VIDREC_EVENT"] == "failed" && runs[0]["VIDREC_EXIT_CODE"] == "69", "\(runs[0])")
            #expect(runs[0]["VIDREC_REASON"]?.hasPrefix("camera /dev/video-none not found") == true, "\(runs[0])")
            #expect(result.err.hasSuffix("Error: camera /dev/video-none not found (No such file or directory); 'vidrec devices' lists the cameras\n"),
                    "the error is the last line: \(result.err)")
        }

        /// Hooks that hang are stopped at the time limit, and the recording loses no
        /// frame while they run: every segment holds every frame of its second.
        @Test func aHangingHookIsStoppedAtItsLimitAndTheRecordingLosesNothing() throws {
            let home = try Home()
            let result = try VidrecProcess.run(Self.start + ["--segment", "1", "--max", "3", "--save", "--hook-timeout", "1",
                                                             "--on-saved", "sleep 600"], home: home.path)
            #expect(result.code == 0, "a hook's failure is not the recording's: \(result.err)")
            let stopped = result.err.components(separatedBy: "vidrec: hook on-saved (sleep) was stopped after 1 s, its time limit (--hook-timeout)\n")
            #expect(stopped.count == 4, "\(result.err)")
            let files = result.out.split(separator: "\n").map(String.init)
            try #require(files.count == 3, "\(result.out)")
            var numbers: [Int] = []
            for file in files { numbers += try Probe.frameNumbers(file, width: 640, height: 360) }
            #expect(numbers == Array(0..<45), "\(numbers)")
        }
    }
}
