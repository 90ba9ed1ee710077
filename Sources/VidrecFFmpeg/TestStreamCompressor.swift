import CFFmpeg
import VidrecMedia

/// Compresses the test camera's pictures as USB webcams send them (``FrameCompressing``):
/// Motion JPEG in full-range 4:2:2 with libavcodec's `mjpeg` encoder, or H.264 with
/// libx264 as a camera's encoder makes it (Annex B, the parameter sets before every
/// keyframe, a fixed keyframe interval, no B-frames, one access unit per picture).
public struct TestStreamCompressor: FrameCompressing {
    /// Creates a compressor.
    public init() {}

    public func compress(_ count: Int, pictures picture: (Int) -> VideoFrame, as format: PixelFormat, frameRate: Rational,
                         keyframeInterval: Int) throws -> [[UInt8]] {
        guard count > 0 else { return [] }
        let first = picture(0)
        let h264 = format == .h264
        let name = h264 ? "libx264" : "mjpeg"
        let subject = "the test camera's \(format.rawValue) frames"
        let pixelFormat = h264 ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_YUVJ422P
        let encoder = try Self.openEncoder(name, pixelFormat: pixelFormat, width: first.width, height: first.height, frameRate: frameRate,
                                           keyframeInterval: keyframeInterval, subject: subject)
        let cc = encoder.pointer

        let owned = try OwnedFrame(subject: subject)
        let frame = owned.pointer
        frame.pointee.width = cc.pointee.width
        frame.pointee.height = cc.pointee.height
        frame.pointee.format = pixelFormat.rawValue
        try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer", subject)
        let scaler = Scaler()
        let packet = try OwnedPacket(subject: subject)
        var frames: [[UInt8]] = []
        func receive() throws {
            while true {
                let received = avcodec_receive_packet(cc, packet.pointer)
                if received == cffmpeg_averror_eagain() || received == cffmpeg_averror_eof() { return }
                try check(received, "avcodec_receive_packet", subject)
                frames.append(Array(UnsafeBufferPointer(start: packet.pointer.pointee.data, count: Int(packet.pointer.pointee.size))))
                av_packet_unref(packet.pointer)
            }
        }
        for index in 0..<count {
            let picture = index == 0 ? first : picture(index)
            try check(av_frame_make_writable(frame), "av_frame_make_writable", subject)
            let sws = try scaler.context(from: Int32(picture.width), Int32(picture.height), AV_PIX_FMT_YUYV422,
                                         to: cc.pointee.width, cc.pointee.height, pixelFormat, subject: subject)
            let source: [UnsafePointer<UInt8>?] = [UnsafePointer(picture.buffer.bytes.assumingMemoryBound(to: UInt8.self)), nil, nil, nil]
            let strides: [Int32] = [Int32(picture.strides[0]), 0, 0, 0]
            _ = try withUnsafeMutablePointer(to: &frame.pointee.data) { data in
                try withUnsafeMutablePointer(to: &frame.pointee.linesize) { lines in
                    try check(sws_scale(sws, source, strides, 0, Int32(picture.height),
                                        UnsafeMutableRawPointer(data).assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self),
                                        UnsafeMutableRawPointer(lines).assumingMemoryBound(to: Int32.self)),
                              "sws_scale", subject)
                }
            }
            frame.pointee.pts = Int64(index)
            frame.pointee.quality = cc.pointee.global_quality
            try check(avcodec_send_frame(cc, frame), "avcodec_send_frame", subject)
            try receive()
        }
        try check(avcodec_send_frame(cc, nil), "avcodec_send_frame", subject)
        try receive()
        guard frames.count == count else {
            throw FFmpegError("compress", subject, code: cffmpeg_averror(EINVAL),
                              hint: "\(name) gave \(frames.count) frames for \(count) pictures")
        }
        return frames
    }

    /// Opens the encoder `name` (libx264 or mjpeg) for `width × height` pictures at
    /// `frameRate`: H.264 with a keyframe every `keyframeInterval` frames and its headers
    /// repeated at each, as a webcam sends it; Motion JPEG at a fixed quality.
    private static func openEncoder(_ name: String, pixelFormat: AVPixelFormat, width: Int, height: Int, frameRate: Rational,
                                    keyframeInterval: Int, subject: String) throws -> CodecContext {
        let h264 = name == "libx264"
        guard let codec = h264 ? avcodec_find_encoder_by_name(name) : avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw FFmpegError("avcodec_find_encoder", name, code: cffmpeg_averror(ENOSYS),
                              hint: "this FFmpeg has no \(name) encoder for the test camera", kind: .unsupportedSettings)
        }
        let encoder = try CodecContext(codec: codec, subject: subject)
        let cc = encoder.pointer
        cc.pointee.width = Int32(width)
        cc.pointee.height = Int32(height)
        cc.pointee.pix_fmt = pixelFormat
        cc.pointee.framerate = AVRational(num: Int32(frameRate.numerator), den: Int32(frameRate.denominator))
        cc.pointee.time_base = av_inv_q(cc.pointee.framerate)
        if h264 {
            cc.pointee.gop_size = Int32(keyframeInterval)
            cc.pointee.max_b_frames = 0
            cc.pointee.bit_rate = Int64(width * height) * 3
            try EncoderOptions.set(cc, "preset", "ultrafast", codec: name)
            try EncoderOptions.set(cc, "tune", "zerolatency", codec: name)
            try EncoderOptions.set(cc, "x264-params",
                                   "keyint=\(keyframeInterval):min-keyint=\(keyframeInterval):scenecut=0:repeat-headers=1",
                                   codec: name)
        } else {
            cc.pointee.flags |= AV_CODEC_FLAG_QSCALE
            cc.pointee.global_quality = 4 * FF_QP2LAMBDA
        }
        try check(avcodec_open2(cc, codec, nil), "avcodec_open2", subject)
        return encoder
    }
}
