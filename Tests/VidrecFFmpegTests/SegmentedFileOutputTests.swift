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

    @Test func everySegmentHoldsExactlyItsFramesAndTheSegmentsPlayBackToBackAsOne() throws {
        FFmpegLog.configure(level: nil)
        let folder = try EncodeOnceMuxManyTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // B-frames (veryfast) and a keyframe interval that does not divide the segments.
        let settings = EncodeOnceMuxManyTests.settings(container: .mp4, audio: true, speed: "veryfast")
        let encoder = try MovieEncoder(settings: settings, for: [.mp4])
        // A first segment of 7 frames (as --segment-at-clock makes), then 10 each.
        let plan = SegmentPlan(firstLength: 7, length: 10)
        encoder.cut(into: plan)
        let sink = FolderSink(folder: folder)
        encoder.connect(SegmentedFileOutput(container: .mp4, streams: encoder.streams, plan: plan, frameRate: Rational(15),
                                            sampleRate: 48000, sink: sink),
                        policy: .movieFile, threadName: "test.segments")
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
