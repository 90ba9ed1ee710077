import CFFmpeg
import Foundation
import Testing
import VidrecFFmpeg
import VidrecMedia
import VidrecMP4

/// The finished movie's video track lasts until its latest frame ends, also when frames
/// were dropped just before the end and the encoder reorders frames (x264's B-frames):
/// an MP4 track is measured by decode times, which then end early.
@Suite struct MovieFinalizerTests {
    static let width = 160, height = 120

    /// A small x264 movie at 15 fps with a keyframe a second and no audio, as fragments.
    static let settings = MovieSettings(
        container: .mp4,
        video: VideoEncoding(codec: "libx264", width: width, height: height, frameRate: Rational(15),
                             pixelFormat: "yuv420p", speed: "veryfast", crf: 23, bitRate: nil, keyframeInterval: 15),
        audio: nil)

    static func frame(_ index: Int) -> VideoFrame {
        TestFrames.ramp(index, width: width, height: height, frameDuration: 66_666_667)
    }

    /// What ffprobe prints about the video stream of `file` (`-select_streams v:0`),
    /// as CSV without keys.
    static func probeVideo(_ file: String, _ arguments: [String]) throws -> String {
        try FFmpegTool.text("ffprobe", ["-v", "error", "-select_streams", "v:0"] + arguments + ["-of", "csv=p=0", file])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Durations as FFmpeg's own ffprobe reports them: the video track's (`stream`), or
    /// the movie's (`format`, from the movie header, what players show).
    static func duration(_ file: String, of entry: String = "stream") throws -> Double {
        let text = try probeVideo(file, ["-show_entries", "\(entry)=duration"])
        return try #require(Double(text), "ffprobe said \(text)")
    }

    /// Each video packet's presentation time, as ffprobe reads it, in order.
    static func presentationTimes(_ file: String) throws -> [String] {
        try probeVideo(file, ["-show_entries", "packet=pts_time"]).split(separator: "\n").map(String.init)
    }

    /// Frames FFmpeg decodes and shows, edit list applied.
    static func decodedFrames(_ file: String) throws -> Int {
        let text = try probeVideo(file, ["-count_frames", "-show_entries", "stream=nb_read_frames"])
        return try #require(Int(text), "ffprobe said \(text)")
    }

    @Test(arguments: [Array(0..<30), Array(0..<26) + [28, 31], Array(0..<20) + [24], Array(0..<10) + Array(14..<30),
                      Array(0..<5) + [9, 10, 11, 17] + Array(18..<30),
                      // Camera drops throughout (vivid's 20 %), which vary x264's B-frame delay.
                      [0, 2, 3, 4, 5, 7, 8, 9, 10, 12, 13, 15, 16, 17, 18, 19, 21, 22, 23, 24, 26, 27, 28, 29, 30, 32, 33, 36, 37, 38, 39, 41, 42, 43, 44, 46, 47, 49, 50, 51, 52, 54, 55, 57, 58, 59],
                      [0, 1, 3, 5, 6, 7, 9, 10, 11, 12, 13, 16, 17, 18, 20, 21, 23, 24, 25, 26, 27, 29, 30, 31, 33, 34, 35, 36, 39, 40, 41, 42, 44, 45, 46, 48, 49, 51, 53, 54, 55, 56, 57, 59],
                      [0, 3, 4, 6, 7, 8, 9, 10, 13, 14, 15, 16, 18, 19, 20, 21, 22, 24, 25, 27, 28, 29, 31, 32, 33, 34, 35, 37, 38, 40, 41, 42, 43, 44, 46, 47, 48, 50, 51, 52, 53, 55, 56, 58],
                      // An encoder behind on a starved machine: most frames two slots apart
                      // (the last is still shown one slot, not two).
                      [0, 2, 4, 5, 7, 9, 11, 13, 14, 16, 18, 20, 22, 24, 25, 27, 29, 31, 33, 35, 36, 38, 40, 42, 44],
                      [0, 1, 3, 9, 11, 14, 16, 18, 20, 26, 28, 30, 32, 34, 36, 38, 40, 41, 43, 45, 47, 49, 51, 53, 55, 57, 59],
                      // A segment whose only frames are the two held over its cuts.
                      [0, 49]])
    func theVideoTrackEndsWhereItsLatestFrameEnds(indexes: [Int]) throws {
        FFmpegLog.configure(level: nil)
        let folder = NSTemporaryDirectory() + "vidrec-finalizer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fragmented = folder + "/movie.partial.mp4", final = folder + "/movie.mp4"
        let settings = Self.settings
        let output = try MovieEncoder.recordingFile(path: fragmented, settings: settings)
        for index in indexes { try output.appendVideo(Self.frame(index), frameIndex: Int64(index)) }
        try output.finish()
        let shownBefore = try Self.presentationTimes(fragmented)
        try MovieFinalizer().finalize(fragmented, trimToCommonEnd: false)
        // Every frame is shown when it was (a frame decoded later keeps its time).
        #expect(try Self.presentationTimes(fragmented) == shownBefore)
        try FileManager.default.moveItem(atPath: fragmented, toPath: final)
        let expected = Double(indexes.last! + 1) / 15
        let duration = try Self.duration(final)
        #expect(abs(duration - expected) < 0.001, "\(indexes.count) frames up to slot \(indexes.last!): \(duration) s, want \(expected) s")
        // The movie header says the same (players show it; it was a frame or more longer
        // when the last frame in decode order was not the latest shown).
        let movie = try Self.duration(final, of: "format")
        #expect(abs(movie - expected) < 0.001, "movie \(movie) s, want \(expected) s")
        // Every frame given is shown: the edit list cuts none off at either end.
        #expect(try Self.decodedFrames(final) == indexes.count)
    }
}
