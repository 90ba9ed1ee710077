import CFFmpeg
import Foundation
import Testing
import VidrecFFmpeg
import VidrecMedia
import VidrecMP4

/// vivid offers no MJPEG, so the MJPEG path is fed JPEGs made with libavcodec's own
/// `mjpeg` encoder, each a flat grey whose level encodes the frame number.
@Suite struct MJPEGInputTests {
    static let width = 320, height = 240

    /// Encodes one flat-grey JPEG (full-range YUV 4:2:0) with libavcodec.
    static func jpeg(luma: UInt8) throws -> Data {
        let codec = try #require(avcodec_find_encoder(AV_CODEC_ID_MJPEG))
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        let cc = try #require(context)
        cc.pointee.width = Int32(width)
        cc.pointee.height = Int32(height)
        cc.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        cc.pointee.time_base = AVRational(num: 1, den: 15)
        try #require(avcodec_open2(cc, codec, nil) == 0)
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        let f = try #require(frame)
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        try #require(av_frame_get_buffer(f, 0) == 0)
        let planes = withUnsafeBytes(of: &f.pointee.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self).prefix(3)) }
        let strides = withUnsafeBytes(of: &f.pointee.linesize) { Array($0.bindMemory(to: Int32.self).prefix(3)) }
        for (plane, rows) in [(0, height), (1, height / 2), (2, height / 2)] {
            memset(planes[plane]!, Int32(plane == 0 ? luma : 128), Int(strides[plane]) * rows)
        }
        f.pointee.pts = 0
        try #require(avcodec_send_frame(cc, f) == 0)
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        try #require(avcodec_receive_packet(cc, packet) == 0)
        return Data(bytes: packet!.pointee.data, count: Int(packet!.pointee.size))
    }

    static func frame(_ data: Data, sequence: UInt64) -> VideoFrame {
        let buffer = data.withUnsafeBytes { FrameBuffer(copying: $0.baseAddress!, count: data.count) }
        return VideoFrame(pixelFormat: .mjpeg, width: width, height: height, buffer: buffer, byteCount: data.count,
                          strides: [0], captureTime: Int64(sequence) * 66_666_667, sequence: sequence)
    }

    static let settings = MovieSettings(
        container: .mp4,
        video: VideoEncoding(codec: "libx264", width: width, height: height, frameRate: Rational(15), pixelFormat: "yuv420p",
                             speed: "veryfast", crf: 18, bitRate: nil, keyframeInterval: 15),
        audio: nil)

    @Test func mjpegFramesAreDecodedScaledAndEncoded() throws {
        FFmpegLog.configure(level: nil)
        let folder = NSTemporaryDirectory() + "vidrec-mjpeg-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fragmented = folder + "/movie.partial.mp4", final = folder + "/movie.mp4"

        let output = try MovieEncoder.recordingFile(path: fragmented, settings: Self.settings)
        for index in 0..<30 {
            try output.appendVideo(Self.frame(try Self.jpeg(luma: UInt8(40 + index * 6)), sequence: UInt64(index)), frameIndex: Int64(index))
        }
        // A torn JPEG, as cameras sometimes send: skipped and counted, not fatal.
        try output.appendVideo(Self.frame(Data([0xFF, 0xD8, 0xFF, 0xDB, 0x00]), sequence: 30), frameIndex: 30)
        try output.finish()
        #expect(output.leftOutFrames == 1)
        try MovieFinalizer().finalize(fragmented, trimToCommonEnd: false)
        try FileManager.default.moveItem(atPath: fragmented, toPath: final)

        let info = try MovieProbe().inspect(final)
        #expect(info.streams.map(\.codec) == ["h264"])
        #expect(info.streams[0].packets == 30)
        #expect(abs(info.streams[0].duration - 2.0) < 0.001)
        // Frame 20's grey level survives the JPEG → YUV → H.264 trip.
        let grey = try Self.decodeGrey(final, index: 20)
        let mean = Double(grey.reduce(0) { $0 + Int($1) }) / Double(grey.count)
        let expected = 16 + Double(40 + 20 * 6) * 219 / 255  // full range to limited range
        #expect(abs(mean - expected) < 3, "mean luma \(mean), expected \(expected)")
    }

    /// Frame `index`'s luma plane, decoded by FFmpeg's own ffmpeg tool.
    static func decodeGrey(_ file: String, index: Int) throws -> [UInt8] {
        let data = try FFmpegTool.run("ffmpeg", ["-v", "error", "-i", file, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1",
                                                 "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]).output
        // The Y plane, exactly as coded (limited range).
        return Array(data.prefix(width * height))
    }
}
