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
        try jpeg(luma: luma, layout: AV_PIX_FMT_YUVJ420P, chroma: { _, _ in 128 })
    }

    /// Encodes one JPEG of flat luma in `layout` (full-range 4:2:0 or 4:2:2), each
    /// chroma sample `chroma(plane, row)` (plane 1 is Cb, 2 is Cr).
    static func jpeg(luma: UInt8, layout: AVPixelFormat, standardTables: Bool = false, chroma: (Int, Int) -> UInt8) throws -> Data {
        let codec = try #require(avcodec_find_encoder(AV_CODEC_ID_MJPEG))
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        let cc = try #require(context)
        cc.pointee.width = Int32(width)
        cc.pointee.height = Int32(height)
        cc.pointee.pix_fmt = layout
        cc.pointee.time_base = AVRational(num: 1, den: 15)
        // JPEG's standard Huffman tables (the ones a decoder assumes when a frame has
        // none) rather than tables made for this picture.
        if standardTables { try #require(av_opt_set(cc.pointee.priv_data, "huffman", "default", 0) == 0) }
        try #require(avcodec_open2(cc, codec, nil) == 0)
        var frame = av_frame_alloc()
        defer { av_frame_free(&frame) }
        let f = try #require(frame)
        f.pointee.width = Int32(width)
        f.pointee.height = Int32(height)
        f.pointee.format = layout.rawValue
        try #require(av_frame_get_buffer(f, 0) == 0)
        let planes = withUnsafeBytes(of: &f.pointee.data) { Array($0.bindMemory(to: UnsafeMutablePointer<UInt8>?.self).prefix(3)) }
        let strides = withUnsafeBytes(of: &f.pointee.linesize) { Array($0.bindMemory(to: Int32.self).prefix(3)) }
        let chromaRows = layout == AV_PIX_FMT_YUVJ422P ? height : height / 2
        memset(planes[0]!, Int32(luma), Int(strides[0]) * height)
        for plane in 1...2 {
            for row in 0..<chromaRows {
                memset(planes[plane]! + row * Int(strides[plane]), Int32(chroma(plane, row)), Int(strides[plane]))
            }
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

    /// Records `pictures` (frame n in slot n) with `settings`, checks that `leftOut` of
    /// them were left out, finishes the file and hands its path to `check`.
    static func record(_ pictures: [Data], settings: MovieSettings = settings, leftOut: Int64 = 0,
                       check: (String) throws -> Void) throws {
        try record(frames: pictures.enumerated().map { frame($1, sequence: UInt64($0)) }, settings: settings, leftOut: leftOut, check: check)
    }

    /// Records `frames` (frame n in slot n) with `settings`, checks that `leftOut` of
    /// them were left out, finishes the file and hands its path to `check`.
    static func record(frames: [VideoFrame], settings: MovieSettings = settings, leftOut: Int64 = 0,
                       check: (String) throws -> Void) throws {
        FFmpegLog.configure(level: nil)
        let folder = NSTemporaryDirectory() + "vidrec-mjpeg-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fragmented = folder + "/movie.partial.mp4", final = folder + "/movie.mp4"
        let output = try MovieEncoder.recordingFile(path: fragmented, settings: settings)
        for (index, input) in frames.enumerated() {
            try output.appendVideo(input, frameIndex: Int64(index))
        }
        try output.finish()
        #expect(output.leftOutFrames == leftOut)
        try MovieFinalizer().finalize(fragmented, trimToCommonEnd: false)
        try FileManager.default.moveItem(atPath: fragmented, toPath: final)
        try check(final)
    }

    @Test func mjpegFramesAreDecodedScaledAndEncoded() throws {
        let pictures = try (0..<30).map { try Self.jpeg(luma: UInt8(40 + $0 * 6)) }
        // A torn JPEG, as cameras sometimes send: skipped and counted, not fatal.
        try Self.record(pictures + [Data([0xFF, 0xD8, 0xFF, 0xDB, 0x00])], leftOut: 1) { final in
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
    }

    /// A Motion JPEG camera's 4:2:2 pictures go to a yuv420p movie without a range
    /// conversion: the movie says full range and centred chroma, luma keeps its JPEG
    /// level, and chroma that differs between the top and bottom halves survives the
    /// vertical halving; a 4:2:0 JPEG's planes go in as they are.
    @Test(arguments: [AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ420P])
    func aMotionJPEGCamerasPicturesKeepTheirFullRange(layout: AVPixelFormat) throws {
        var settings = Self.settings
        settings.video.sourceFormat = .mjpeg
        let chromaRows = layout == AV_PIX_FMT_YUVJ422P ? Self.height : Self.height / 2
        // Cb 70 above the middle and 190 below; Cr 200 and 60.
        let chroma: (Int, Int) -> UInt8 = { plane, row in
            let top = row < chromaRows / 2
            return plane == 1 ? (top ? 70 : 190) : (top ? 200 : 60)
        }
        let pictures = try (0..<15).map { try Self.jpeg(luma: UInt8(10 + $0 * 15), layout: layout, chroma: chroma) }
        try Self.record(pictures, settings: settings) { final in
            let stream = try FFmpegTool.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries",
                                                        "stream=pix_fmt,color_range,chroma_location,nb_frames", "-of", "compact", final]).output
            #expect(String(decoding: stream, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    == "stream|pix_fmt=yuvj420p|color_range=pc|chroma_location=center|nb_frames=15")
            // Frame 12 as stored: 4:2:0 planes at full range.
            let data = try FFmpegTool.run("ffmpeg", ["-v", "error", "-i", final, "-vf", "select=eq(n\\,12)", "-frames:v", "1",
                                                     "-f", "rawvideo", "-pix_fmt", "yuvj420p", "-"]).output
            let lumaCount = Self.width * Self.height, chromaCount = lumaCount / 4
            try #require(data.count == lumaCount + 2 * chromaCount)
            let bytes = [UInt8](data)
            func mean(_ slice: ArraySlice<UInt8>) -> Double { Double(slice.reduce(0) { $0 + Int($1) }) / Double(slice.count) }
            #expect(abs(mean(bytes[0..<lumaCount]) - Double(10 + 12 * 15)) < 2, "luma kept at the JPEG's level")
            let half = chromaCount / 2
            // Away from the middle row, where the halving and the encoder blend the halves.
            let cb = lumaCount, cr = lumaCount + chromaCount, margin = Self.width / 2 * 4
            #expect(abs(mean(bytes[cb..<cb + half - margin]) - 70) < 3)
            #expect(abs(mean(bytes[cb + half + margin..<cb + chromaCount]) - 190) < 3)
            #expect(abs(mean(bytes[cr..<cr + half - margin]) - 200) < 3)
            #expect(abs(mean(bytes[cr + half + margin..<cr + chromaCount]) - 60) < 3)
        }
    }

    /// `jpeg` without its Huffman table segments (DHT, FF C4), as many UVC cameras send
    /// their frames.
    static func withoutHuffmanTables(_ jpeg: Data) -> Data {
        let bytes = [UInt8](jpeg)
        var kept = Array(bytes[0..<2])
        var index = 2
        while index + 4 <= bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            if marker == 0xDA { break }
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if marker != 0xC4 { kept += bytes[index..<index + 2 + length] }
            index += 2 + length
        }
        return Data(kept + bytes[index...])
    }

    /// JPEGs without Huffman tables, 4:2:2 ones (libjpeg-turbo) and 4:4:4 ones (left to
    /// libavcodec) all decode, at their grey level, with none left out.
    @Test(arguments: [(AV_PIX_FMT_YUVJ422P, true), (AV_PIX_FMT_YUVJ420P, true), (AV_PIX_FMT_YUVJ444P, false)])
    func jpegsWithoutHuffmanTablesAndIn444Decode(layout: AVPixelFormat, stripTables: Bool) throws {
        var settings = Self.settings
        settings.video.sourceFormat = .mjpeg
        let pictures = try (0..<15).map { index in
            let picture = try Self.jpeg(luma: UInt8(20 + index * 12), layout: layout, standardTables: stripTables, chroma: { _, _ in 128 })
            guard stripTables else { return picture }
            let stripped = Self.withoutHuffmanTables(picture)
            #expect(stripped.count < picture.count && !stripped.contains(Data([0xFF, 0xC4])))
            return stripped
        }
        try Self.record(pictures, settings: settings) { final in
            let data = try FFmpegTool.run("ffmpeg", ["-v", "error", "-i", final, "-vf", "select=eq(n\\,10)", "-frames:v", "1",
                                                     "-f", "rawvideo", "-pix_fmt", "yuvj420p", "-"]).output
            let luma = [UInt8](data.prefix(Self.width * Self.height))
            let mean = Double(luma.reduce(0) { $0 + Int($1) }) / Double(max(1, luma.count))
            #expect(abs(mean - Double(20 + 10 * 12)) < 2, "frame 10's luma \(mean)")
        }
    }

    /// A raw YUYV frame of flat luma `luma` (limited range, as cameras send YUYV).
    static func yuyvFrame(luma: UInt8, sequence: UInt64) -> VideoFrame {
        var bytes = [UInt8](repeating: 128, count: width * 2 * height)
        for index in stride(from: 0, to: bytes.count, by: 2) { bytes[index] = luma }
        let buffer = bytes.withUnsafeBytes { FrameBuffer(copying: $0.baseAddress!, count: bytes.count) }
        return VideoFrame(pixelFormat: .yuyv, width: width, height: height, buffer: buffer, byteCount: bytes.count,
                          strides: [width * 2], captureTime: Int64(sequence) * 66_666_667, sequence: sequence)
    }

    /// With processors to spare, JPEGs are decoded on several threads ahead of the
    /// encoder (four on eight processors) and still reach the movie in their slots'
    /// order: neighbouring frames differ in grey level, so a frame out of place shows.
    /// Corrupt JPEGs among them are left out and counted, and raw frames between them
    /// (a camera switched from MJPEG to YUYV and back) wait for the JPEGs before them.
    @Test(arguments: [8, 2, 1])
    func jpegsDecodedOnSeveralThreadsKeepTheirOrder(processors: Int) throws {
        var settings = Self.settings
        settings.video.processors = processors
        let slots = 65, corrupt: Set = [7, 23, 24], raw = 40..<45
        // Neighbours (up to five apart) differ by 30 or more in full range.
        func level(_ slot: Int) -> Int { 16 + (slot * 37 % 64) * 3 }
        let frames = try (0..<slots).map { slot in
            raw.contains(slot)
                ? Self.yuyvFrame(luma: UInt8(level(slot)), sequence: UInt64(slot))
                : Self.frame(corrupt.contains(slot) ? Data([0xFF, 0xD8, 0xFF, 0xDB, 0x00]) : try Self.jpeg(luma: UInt8(level(slot))),
                             sequence: UInt64(slot))
        }
        try Self.record(frames: frames, settings: settings, leftOut: Int64(corrupt.count)) { final in
            let kept = (0..<slots).filter { !corrupt.contains($0) }
            // Every frame, one picture per packet, as stored (limited range).
            let data = try FFmpegTool.run("ffmpeg", ["-v", "error", "-i", final, "-fps_mode", "passthrough",
                                                     "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]).output
            let frameBytes = Self.width * Self.height * 3 / 2
            try #require(data.count == kept.count * frameBytes, "\(data.count / frameBytes) frames, expected \(kept.count)")
            let bytes = [UInt8](data)
            for (position, slot) in kept.enumerated() {
                let luma = bytes[position * frameBytes..<position * frameBytes + Self.width * Self.height]
                let mean = Double(luma.reduce(0) { $0 + Int($1) }) / Double(luma.count)
                // JPEGs are full range, converted to limited; YUYV is limited already.
                let expected = raw.contains(slot) ? Double(level(slot)) : 16 + Double(level(slot)) * 219 / 255
                #expect(abs(mean - expected) < 4, "frame \(position) (slot \(slot)): luma \(mean), expected \(expected)")
            }
        }
    }

    /// Frame `index`'s luma plane, decoded by FFmpeg's own ffmpeg tool.
    static func decodeGrey(_ file: String, index: Int) throws -> [UInt8] {
        let data = try FFmpegTool.run("ffmpeg", ["-v", "error", "-i", file, "-vf", "select=eq(n\\,\(index))", "-frames:v", "1",
                                                 "-f", "rawvideo", "-pix_fmt", "yuv420p", "-"]).output
        // The Y plane, exactly as coded (limited range).
        return Array(data.prefix(width * height))
    }
}
