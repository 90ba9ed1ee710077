import Foundation
import Synchronization
import Testing
import VidrecFFmpeg
import VidrecMedia
import VidrecMP4

/// A movie cut into segments by the encoder: each segment a file of its own that starts
/// with a keyframe and holds exactly its frames, its audio cut on the same instant, so
/// that the segments played back to back are the continuous recording.
@Suite(.timeLimit(.minutes(2))) struct SegmentedFileOutputTests {
    /// Records what the writer asked for; files go to `folder`, each indexed in place
    /// when it closes, as the recorder's pending area does.
    final class FolderSink: SegmentSink, @unchecked Sendable {
        // Only the writer's thread calls it; the test reads after finish().
        let folder: String
        var opened: [(Int, Double)] = []
        var closed: [(Int, String, Bool)] = []
        init(folder: String) { self.folder = folder }
        func openSegment(_ index: Int, startingAt seconds: Double) throws -> (path: String, metadata: [String: String]) {
            opened.append((index, seconds))
            return (folder + "/segment-\(index).mp4", ["title": "segment \(index)"])
        }
        func closeSegment(_ index: Int, path: String, failure: (any Error)?) throws {
            _ = try MovieFinalizer().finalize(path, trimToCommonEnd: false)
            closed.append((index, path, failure == nil))
        }
    }

    static func videoPackets(_ file: String) throws -> [(pts: Int, key: Bool)] {
        try FFmpegTool.text("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pts,flags",
                                        "-of", "csv=p=0", file]).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: ",")
            guard parts.count >= 2, let pts = Int(parts[0]) else { return nil }
            return (pts, parts[1].hasPrefix("K"))
        }
    }

    /// A file's audio, decoded to 16-bit samples (with the last AAC frame's padding,
    /// which FFmpeg 5.1's decoder returns although the container leaves it out).
    static func decodedSamples(_ file: String) throws -> [Int16] {
        let data = try FFmpegTool.run("ffmpeg", ["-v", "error", "-i", file, "-map", "0:a:0", "-f", "s16le", "-"]).output
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// A stream's length as its file states it, in its time base (samples, for audio).
    static func statedLength(_ file: String, stream: String) throws -> Int? {
        Int(try FFmpegTool.text("ffprobe", ["-v", "error", "-select_streams", "\(stream):0", "-show_entries", "stream=duration_ts",
                                            "-of", "csv=p=0", file]).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// An MP4 encoder at 15 fps with a tone, cut into a first segment of 7 frames (as
    /// --segment-at-clock makes) and then 10 each, its segments written into `folder`.
    static func segmentedEncoder(into folder: String, speed: String) throws -> (MovieEncoder, FolderSink) {
        let encoder = try MovieEncoder(settings: EncodeOnceMuxManyTests.settings(container: .mp4, audio: true, speed: speed), for: [.mp4])
        let plan = SegmentPlan(firstLength: 7, length: 10)
        encoder.cut(into: plan)
        let sink = FolderSink(folder: folder)
        encoder.connect(SegmentedFileOutput(container: .mp4, streams: encoder.streams, plan: plan, frameRate: Rational(15),
                                            sampleRate: 48000, sink: sink),
                        policy: .movieFile, threadName: "test.segments")
        return (encoder, sink)
    }

    @Test func everySegmentHoldsExactlyItsFramesAndTheSegmentsPlayBackToBackAsOne() throws {
        FFmpegLog.configure(level: nil)
        let folder = try EncodeOnceMuxManyTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // B-frames (veryfast) and a keyframe interval that does not divide the segments.
        let (encoder, sink) = try Self.segmentedEncoder(into: folder, speed: "veryfast")
        for index in 0..<45 {
            try encoder.appendVideo(EncodeOnceMuxManyTests.frame(index), frameIndex: Int64(index))
            try encoder.appendAudio(EncodeOnceMuxManyTests.tone(index))
        }
        try encoder.finish()

        #expect(sink.opened.map(\.0) == [0, 1, 2, 3, 4])
        let starts: [Double] = [0, 7, 17, 27, 37].map { Double($0) / 15 }
        #expect(sink.opened.map(\.1) == starts)
        #expect(sink.closed.map(\.0) == [0, 1, 2, 3, 4] && sink.closed.allSatisfy(\.2))
        let files = (0..<5).map { folder + "/segment-\($0).mp4" }
        let lengths = [7, 10, 10, 10, 8]
        for (file, frames) in zip(files, lengths) {
            let packets = try Self.videoPackets(file)
            #expect(packets.count == frames, "\(file): \(packets.count) frames")
            #expect(packets.first?.key == true, "\(file) starts with a keyframe")
            let info = try MovieProbe().inspect(file)
            #expect(abs(info.playableDuration - Double(frames) / 15) < 0.002, "\(file): \(info.playableDuration) s")
        }

        // Played back to back with ffmpeg's concat demuxer: every frame once.
        let list = folder + "/list.txt"
        try files.map { "file '\($0)'" }.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let frames = try FFmpegTool.text("ffprobe", ["-v", "error", "-f", "concat", "-safe", "0", "-count_frames", "-select_streams", "v:0",
                                                     "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", list])
        #expect(frames.trimmingCharacters(in: .whitespacesAndNewlines) == "45")

        try Self.expectOneUnbrokenToneAcrossTheCuts(files, lengths: lengths)
    }

    /// Frames missing at the cuts (the camera skipped them, or the session dropped them
    /// while the encoder was behind), one segment reached by none: every segment still
    /// starts at time 0 with a keyframe and ends on its last slot, holding the picture
    /// before the gap, and its audio is exactly as long.
    @Test func slotsThatNoFrameReachedAtTheCutsHoldThePictureBeforeThem() throws {
        FFmpegLog.configure(level: nil)
        let folder = try EncodeOnceMuxManyTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (encoder, sink) = try Self.segmentedEncoder(into: folder, speed: "ultrafast")
        // Frames 5-8 (around the cut at 7) and 15-29 (the cuts at 17 and 27, and every
        // slot of the segment between) never come.
        let sent = Array(0..<5) + Array(9..<15) + Array(30..<45)
        for index in 0..<45 {
            if sent.contains(index) { try encoder.appendVideo(EncodeOnceMuxManyTests.frame(index), frameIndex: Int64(index)) }
            try encoder.appendAudio(EncodeOnceMuxManyTests.tone(index))
        }
        try encoder.finish()

        #expect(sink.closed.map(\.0) == [0, 1, 2, 3, 4] && sink.closed.allSatisfy(\.2))
        let files = (0..<5).map { folder + "/segment-\($0).mp4" }
        let lengths = [7, 10, 10, 10, 8]
        // Each segment's slots with a picture, counted from its start: the held picture
        // on the slots on both sides of each cut, and the camera's frames.
        let expected = [[0, 1, 2, 3, 4, 6], [0, 2, 3, 4, 5, 6, 7, 9], [0, 9], [0, 3, 4, 5, 6, 7, 8, 9], Array(0..<8)]
        for (file, (frames, slots)) in zip(files, zip(lengths, expected)) {
            let packets = try Self.videoPackets(file)
            let timeBase = try FFmpegTool.text("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=time_base",
                                                           "-of", "csv=p=0", file])
            let ticks = try #require(Int(timeBase.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(2))) / 15
            #expect(packets.map { $0.pts / ticks }.sorted() == slots, "\(file)")
            #expect(packets.first?.key == true, "\(file) starts with a keyframe")
            let info = try MovieProbe().inspect(file)
            #expect(abs(info.playableDuration - Double(frames) / 15) < 0.002, "\(file): \(info.playableDuration) s")
        }
        // The picture held over the first cut is frame 4's: the same as its own.
        let held = try FFmpegTool.run("ffmpeg", ["-v", "error", "-i", files[1], "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        let own = try FFmpegTool.run("ffmpeg", ["-v", "error", "-i", files[0], "-vf", "select=eq(n\\,4)", "-frames:v", "1",
                                                "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        #expect(held.output.count > 0 && Self.meanDifference(held.output, own.output) < 3)
        try Self.expectOneUnbrokenToneAcrossTheCuts(files, lengths: lengths)
    }

    /// The mean absolute difference of two pictures' bytes (255 for different sizes).
    static func meanDifference(_ a: Data, _ b: Data) -> Double {
        guard a.count == b.count, !a.isEmpty else { return 255 }
        return Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(a.count)
    }

    /// Each segment's audio exactly as long as its video, as its file states; played
    /// one after the other as their files say (a gapless player), one unbroken tone.
    static func expectOneUnbrokenToneAcrossTheCuts(_ files: [String], lengths: [Int]) throws {
        var samples: [Int16] = []
        for (file, frames) in zip(files, lengths) {
            let length = try #require(try Self.statedLength(file, stream: "a"))
            #expect(length == frames * 3200, "\(file): \(length) samples of audio")
            samples += try Self.decodedSamples(file).prefix(length)
        }
        try #require(samples.count == 45 * 3200)
        // On both sides of every cut (and, for comparison, inside a segment) the tone is
        // where it belongs, to within half a sample: a gap or an overlap of one
        // sample would move it by one.
        let omega = 2 * Double.pi * 440 / 48000
        for cut in [7, 17, 27, 37].map({ $0 * 3200 }) + [10000] {
            for window in [(cut - 1200)..<cut, cut..<(cut + 1200)] {  // 11 whole periods
                var (sine, cosine) = (0.0, 0.0)
                for i in window {
                    sine += Double(samples[i]) * sin(omega * Double(i))
                    cosine += Double(samples[i]) * cos(omega * Double(i))
                }
                let shift = atan2(cosine, sine) / omega
                #expect(abs(shift) < 0.5, "the tone at samples \(window) is \(shift) samples off")
            }
        }
    }
}
