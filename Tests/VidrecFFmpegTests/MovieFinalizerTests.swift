import CFFmpeg
import Foundation
import Testing
import VidrecFFmpeg
import VidrecMedia

/// The finished movie's video track lasts until its latest frame ends, also when frames
/// were dropped just before the end and the encoder reorders frames (x264's B-frames):
/// an MP4 track is measured by decode times, which then end early.
@Suite struct MovieFinalizerTests {
    static let width = 160, height = 120

    static func frame(_ index: Int) -> VideoFrame {
        let bytes = width * height * 2
        let buffer = FrameBuffer(count: bytes)
        // A moving ramp, so that the encoder has something to predict.
        let pixels = buffer.bytes.assumingMemoryBound(to: UInt8.self)
        for i in 0..<bytes { pixels[i] = UInt8(truncatingIfNeeded: i / 2 + index * 7) }
        return VideoFrame(pixelFormat: .yuyv, width: width, height: height, buffer: buffer, byteCount: bytes,
                          strides: [width * 2], captureTime: Int64(index) * 66_666_667, sequence: UInt64(index))
    }

    /// Durations as FFmpeg's own ffprobe reports them.
    static func videoDuration(_ file: String) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        process.arguments = ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=duration", "-of", "csv=p=0", file]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return try #require(Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), "ffprobe said \(text)")
    }

    @Test(arguments: [Array(0..<30), Array(0..<26) + [28, 31], Array(0..<20) + [24], Array(0..<10) + Array(14..<30),
                      Array(0..<5) + [9, 10, 11, 17] + Array(18..<30)])
    func theVideoTrackEndsWhereItsLatestFrameEnds(indexes: [Int]) throws {
        FFmpegLog.configure(level: nil)
        let folder = NSTemporaryDirectory() + "vidrec-finalizer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fragmented = folder + "/movie.partial.mp4", final = folder + "/movie.mp4"
        let settings = MovieSettings(
            container: .mp4,
            video: VideoEncoding(codec: "libx264", width: Self.width, height: Self.height, frameRate: Rational(15),
                                 pixelFormat: "yuv420p", speed: "veryfast", crf: 23, bitRate: nil, keyframeInterval: 15),
            audio: nil)
        let output = try MovieFileOutput(path: fragmented, settings: settings)
        for index in indexes { try output.appendVideo(Self.frame(index), frameIndex: Int64(index)) }
        try output.finish()
        try MovieFinalizer().finalize(source: fragmented, destination: final, trimToCommonEnd: false)
        let expected = Double(indexes.last! + 1) / 15
        let duration = try Self.videoDuration(final)
        #expect(abs(duration - expected) < 0.001, "\(indexes.count) frames up to slot \(indexes.last!): \(duration) s, want \(expected) s")
    }
}
