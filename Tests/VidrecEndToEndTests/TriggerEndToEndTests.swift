import Foundation
import Testing

extension EndToEndTests {
    /// `--pre`/`--post`: a recording that writes nothing until something happens, then
    /// one file per event with the seconds before it and after the last trigger.
    @Suite struct TriggerEndToEndTests {
        static let start = ["start", "--camera", "test", "--mic", "test", "--quality", "low", "--pre", "2", "--post", "2"]

        /// The test camera's frame numbers in `file`, first and last, and how many.
        static func frames(_ file: String) throws -> (first: Int, last: Int, count: Int, contiguous: Bool) {
            let numbers = try Probe.frameNumbers(file, width: 640, height: 360)
            let first = try #require(numbers.first), last = try #require(numbers.last)
            return (first, last, numbers.count, zip(numbers, numbers.dropFirst()).allSatisfy { $1 == $0 + 1 })
        }

        @Test func eachTriggerWritesTheSecondsBeforeItAndAfterTheLast() throws {
            let home = try Home()
            let recording = try VidrecProcess(Self.start, home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            let before = try #require(try recording.waitUntilRecorded(5))
            #expect(home.files(in: home.pending, ending: ".mp4").isEmpty && home.files(in: home.pending, ending: ".partial.mp4").isEmpty,
                    "nothing is written before a trigger")
            let triggered = try VidrecProcess.run(["trigger"], home: home.path)
            #expect(triggered.code == 0 && triggered.out.hasPrefix("triggered "), "\(triggered.err)")
            #expect(recording.waitForError(containing: "vidrec: event 1 closed: "))
            let second = try #require(try recording.waitUntilRecorded(before + 8))
            recording.signal(SIGUSR1)
            #expect(recording.waitForError(containing: "vidrec: event 2 closed: "))
            recording.signal(SIGINT)
            let ended = recording.wait()
            #expect(ended.code == 0, "\(ended.err)")
            #expect(ended.err.contains("vidrec: triggered (SIGUSR1)"), "\(ended.err)")
            #expect(ended.err.contains("vidrec: 2 events, "), "\(ended.err)")

            let files = home.files(in: home.pending, ending: ".mp4")
            try #require(files.count == 2, "\(files)")
            for (file, moment) in zip(files, [before, second]) {
                let (first, last, count, contiguous) = try Self.frames(file)
                #expect(contiguous && count == last - first + 1, "\(file): every frame from \(first) to \(last)")
                // It starts at a keyframe (one a second at low), seconds before the
                // trigger, and ends after the trigger plus --post.
                #expect(first % 15 == 0, "\(file) starts at frame \(first)")
                #expect(Double(first) / 15 <= moment - 0.5, "\(file) starts at \(Double(first) / 15) s, the trigger came after \(moment) s")
                #expect(Double(last) / 15 >= moment + 0.9, "\(file) ends at \(Double(last) / 15) s, the trigger came after \(moment) s")
                let streams = try Probe.streams(file)
                let video = try #require(streams.first { $0.kind == "video" }?.duration)
                let audio = try #require(streams.first { $0.kind == "audio" }?.duration)
                #expect(abs(video - audio) < 0.05, "\(file): video \(video) s, audio \(audio) s")
            }
        }

        @Test func withoutATriggerNothingIsWrittenAndOnlyATriggeredRecordingTakesOne() throws {
            let home = try Home()
            let plain = try VidrecProcess(["start", "--camera", "test", "--mic", "test", "--quality", "low", "--max", "30"], home: home.path)
            #expect(plain.waitForError(containing: "vidrec: recording "))
            let refused = try VidrecProcess.run(["trigger"], home: home.path)
            #expect(refused.code == 64 && refused.err.contains("does not wait for triggers"), "\(refused.err)")
            plain.signal(SIGINT)
            _ = plain.wait()
            try FileManager.default.removeItem(atPath: home.pending)

            let waiting = try VidrecProcess(Self.start + ["--max", "3"], home: home.path)
            let ended = waiting.wait()
            #expect(ended.code == 0, "\(ended.err)")
            #expect(ended.err.contains("vidrec: no trigger came; nothing was recorded"), "\(ended.err)")
            #expect(try home.pendingRows().isEmpty)
        }
    }
}

extension EndToEndTests.TriggerEndToEndTests {
    @Test func motionTriggersAnEventByItselfAndAThresholdAboveTheMotionNever() throws {
        let home = try Home()
        // The test camera's bars move all the time: motion from the second frame on.
        let moving = try VidrecProcess.run(["start", "--camera", "test", "--mic", "test", "--quality", "low",
                                            "--trigger", "motion", "--pre", "1", "--post", "1", "--max", "4"], home: home.path)
        #expect(moving.code == 0, "\(moving.err)")
        #expect(moving.err.contains("vidrec: 1 event, "), "\(moving.err)")
        let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
        let (first, last, count, contiguous) = try Self.frames(file)
        #expect(first == 0 && last == 59 && count == 60 && contiguous, "frames \(first) to \(last), \(count)")
        try FileManager.default.removeItem(atPath: home.pending)

        let still = try VidrecProcess.run(["start", "--camera", "test", "--mic", "test", "--quality", "low",
                                           "--trigger", "motion=200", "--max", "3"], home: home.path)
        #expect(still.code == 0 && still.err.contains("vidrec: no trigger came; nothing was recorded"), "\(still.err)")
    }
}
