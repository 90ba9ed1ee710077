import Foundation
import Testing

extension EndToEndTests {
    /// `--segment`: one continuous recording as a series of closed, crash-safe files that
    /// play on their own and, back to back, as the recording.
    @Suite struct SegmentEndToEndTests {
        static let start = ["start", "--camera", "test", "--mic", "test", "--quality", "low"]

        /// The pending segments' media files, oldest first.
        static func segmentFiles(_ home: Home) throws -> [String] {
            try home.pendingRows().compactMap { $0["file"] as? String }
        }

        static func statedLength(_ file: String, stream: String) throws -> Int {
            let info = try Probe.json(["-select_streams", "\(stream):0", "-show_entries", "stream=duration_ts", file])
            let streams = try #require(info["streams"] as? [[String: Any]])
            return try #require((streams.first?["duration_ts"] as? Int) ?? Int(streams.first?["duration_ts"] as? String ?? ""))
        }

        @Test func segmentsHoldExactlyTheirFramesAndPlayBackToBackAsTheRecording() throws {
            let home = try Home()
            let run = try VidrecProcess.run(Self.start + ["--max", "5", "--segment", "2"], home: home.path)
            #expect(run.code == 0, "\(run.err)")
            #expect(run.err.contains("vidrec: 3 segments, "), "\(run.err)")
            let files = try Self.segmentFiles(home)
            try #require(files.count == 3, "\(files)")
            let frames = [30, 30, 15]
            var samples: [Int16] = []
            for (file, count) in zip(files, frames) {
                #expect(try Probe.decodedFrameCount(file) == count, "\(file)")
                // Faststart, and its audio exactly as long as its video.
                let boxes = try Probe.topLevelBoxes(file)
                #expect((boxes.firstIndex(of: "moov") ?? 99) < (boxes.firstIndex(of: "mdat") ?? 0), "\(file): \(boxes)")
                let audio = try Self.statedLength(file, stream: "a")
                #expect(audio == count * 3200, "\(file): \(audio) samples")
                samples += try Probe.decodedAudio(file).prefix(audio)
            }
            // Back to back (ffmpeg's concat demuxer): the test camera's frames 0 to 74,
            // each once, in order.
            let list = home.path + "/segments.txt"
            try files.map { "file '\($0)'" }.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
            let grey = try Probe.tool("ffmpeg", ["-v", "error", "-f", "concat", "-safe", "0", "-i", list, "-map", "0:v:0",
                                                 "-f", "rawvideo", "-pix_fmt", "gray", "-"])
            let size = 640 * 360
            let numbers = stride(from: 0, to: grey.count - size + 1, by: size).map {
                Probe.frameNumber(grey: Array(grey[$0..<($0 + size)]), width: 640, height: 360)
            }
            #expect(numbers == Array(0..<75), "\(numbers)")
            // The audio, each segment as long as its file says, one unbroken 1 kHz tone
            // across each cut: a sample missing or doubled there would shift the tone
            // after it by one.
            let jumps = [96000, 192000].map { Probe.toneJump(samples, across: $0) }
            #expect(jumps.allSatisfy { $0 < 0.5 }, "the tone's jump at each cut, in samples: \(jumps)")
        }

        @Test func withSaveEachSegmentIsSavedAsItClosesUnderItsName() throws {
            let home = try Home()
            let run = try VidrecProcess.run(Self.start + ["--max", "5", "--segment", "2", "--save", "--name", "door-%H%M%S"], home: home.path)
            #expect(run.code == 0, "\(run.err)")
            let saved = run.out.split(separator: "\n").map(String.init)
            #expect(saved.count == 3, "\(run.out)")
            #expect(saved.allSatisfy { $0.hasPrefix(home.album + "/door-") && $0.hasSuffix(".mp4") }, "\(saved)")
            #expect(Set(saved).count == 3)
            #expect(try home.pendingRows().isEmpty)
            let listed = try VidrecProcess.run(["list", "--json"], home: home.path)
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]])
            #expect(rows.count == 3 && rows.allSatisfy { $0["madeByVidrec"] as? Bool == true })
            let durations = rows.compactMap { $0["duration"] as? Double }.sorted()
            #expect(durations.count == 3 && abs(durations[0] - 1) < 0.01 && abs(durations[2] - 2) < 0.01, "\(durations)")
        }

        @Test func killedMidSegmentLeavesTheClosedSegmentsWholeAndTheOpenOneRecoverable() throws {
            let home = try Home()
            let recording = try VidrecProcess(Self.start + ["--segment", "2"], home: home.path)
            #expect(recording.waitForError(containing: "vidrec: segment 2 closed: "))
            // Well into the third segment (more than what a crash may lose).
            try recording.waitUntilRecorded(5.6)
            recording.signal(SIGKILL)
            _ = recording.wait()
            let rows = try home.pendingRows()
            #expect(rows.map { $0["state"] as? String } == ["finished", "finished", "interrupted"], "\(rows)")
            let files = try Self.segmentFiles(home)
            for file in files.prefix(2) { #expect(try Probe.decodedFrameCount(file) == 30, "\(file)") }
            let recovered = try VidrecProcess.run(["recover"], home: home.path)
            #expect(recovered.code == 0, "\(recovered.err)")
            let last = try #require(try Self.segmentFiles(home).last)
            #expect(try Probe.decodedFrameCount(last) >= 5, "the open segment, recovered: \(last)")
            #expect(try home.pendingRows().map { $0["state"] as? String } == ["finished", "finished", "finished"])
        }
    }
}

extension EndToEndTests.SegmentEndToEndTests {
    @Test func aNameWithDateFoldersFilesSegmentsByDayAndKeepCountsTheWholeAlbum() throws {
        let home = try Home()
        let run = try VidrecProcess.run(Self.start + ["--max", "7", "--segment", "2", "--save", "--name", "%Y/%m/%d/door-%H%M%S", "--keep", "2"],
                                        home: home.path)
        #expect(run.code == 0, "\(run.err)")
        let saved = run.out.split(separator: "\n").map(String.init)
        #expect(saved.count == 4, "\(run.out)")
        let day = try #require(saved.first.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
        let parts = day.dropFirst(home.album.count + 1).split(separator: "/")
        #expect(parts.count == 3 && parts[0].count == 4 && parts[1].count == 2 && parts[2].count == 2, "\(day)")
        // --keep 2 over the whole album, folders included: the two newest are left.
        #expect(saved.map { FileManager.default.fileExists(atPath: $0) } == [false, false, true, true], "\(saved)")
        #expect(run.err.components(separatedBy: "vidrec: removed older recording ").count - 1 == 2, "\(run.err)")
        let listed = try VidrecProcess.run(["list", "--json"], home: home.path)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [[String: Any]])
        #expect(rows.compactMap { $0["name"] as? String }.sorted() == saved.suffix(2).map { String($0.dropFirst(home.album.count + 1)) }.sorted())
        #expect(rows.allSatisfy { $0["madeByVidrec"] as? Bool == true && $0["thumbnail"] is String }, "\(rows)")
    }
}
