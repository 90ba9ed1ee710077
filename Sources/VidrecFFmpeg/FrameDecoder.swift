import CFFmpeg
import CSystemShims
import VidrecMedia

/// Decodes compressed camera frames: Motion JPEG (`MJPG`, `JPEG`) with libjpeg-turbo
/// (``TurboJPEGDecoder``) when it is YCbCr at 4:2:2 or 4:2:0, as webcams send it, else
/// with libavcodec's `mjpeg` decoder; H.264 access units with libavcodec's `h264`
/// decoder (slice threads and low delay, so that each access unit gives its picture
/// at once).
///
/// For libavcodec each frame is copied into a packet padded as it requires
/// (`AV_INPUT_BUFFER_PADDING_SIZE` zero bytes after the data: a driver's buffer ends
/// where the JPEG ends). JPEGs without Huffman tables, as many UVC cameras send, decode
/// with the standard tables (both decoders' default).
final class FrameDecoder {
    /// The format decoded.
    let format: PixelFormat
    /// libavcodec's decoder: made at once for H.264, on the first JPEG libjpeg-turbo
    /// leaves to it.
    private var context: CodecContext?
    private let turbo: TurboJPEGDecoder?
    private let packetOwner: OwnedPacket
    private let frameOwner: OwnedFrame
    private var packet: UnsafeMutablePointer<AVPacket> { packetOwner.pointer }
    /// The most recently decoded picture; valid until the next ``decode(_:)``.
    var frame: UnsafeMutablePointer<AVFrame> { frameOwner.pointer }

    /// Opens the decoder for frames in `format`, a compressed format.
    init(for format: PixelFormat) throws {
        let name = format.codecName ?? format.rawValue
        guard format.isCompressed else {
            throw FFmpegError("avcodec_find_decoder", name, code: cffmpeg_averror(ENOSYS),
                              hint: "this FFmpeg build has no \(name) decoder")
        }
        self.format = format
        packetOwner = try OwnedPacket(subject: name)
        frameOwner = try OwnedFrame(subject: name)
        turbo = format.isJPEG ? try TurboJPEGDecoder() : nil
        if !format.isJPEG { context = try FrameDecoder.open(format) }
    }

    /// libavcodec's decoder for `format`.
    private static func open(_ format: PixelFormat) throws -> CodecContext {
        let id = format == .h264 ? AV_CODEC_ID_H264 : AV_CODEC_ID_MJPEG
        let name = format.codecName ?? format.rawValue
        guard let codec = avcodec_find_decoder(id) else {
            throw FFmpegError("avcodec_find_decoder", name, code: cffmpeg_averror(ENOSYS),
                              hint: "this FFmpeg build has no \(name) decoder")
        }
        let context = try CodecContext(codec: codec, subject: name)
        if format == .h264 {
            // Slice threads add no delay; frame threads would hold pictures back.
            context.pointer.pointee.flags |= AV_CODEC_FLAG_LOW_DELAY
            context.pointer.pointee.thread_type = FF_THREAD_SLICE
            context.pointer.pointee.thread_count = min(4, max(1, Int32(csystem_available_processors())))
        }
        try check(avcodec_open2(context.pointer, codec, nil), "avcodec_open2", name)
        return context
    }

    /// Decodes one frame into ``frame``.
    ///
    /// - Returns: whether a picture came out (an H.264 frame that follows a lost one may
    ///   give none until the next keyframe).
    /// - Throws: ``FFmpegError`` for a corrupt frame (cameras do send those).
    @discardableResult
    func decode(_ image: VideoFrame) throws -> Bool {
        try decode(image, into: frame)
    }

    /// Decodes one frame into `target`, whose buffers libjpeg-turbo writes into again
    /// when nothing else references them (libavcodec replaces them).
    ///
    /// - Returns: whether a picture came out.
    /// - Throws: ``FFmpegError`` for a corrupt frame.
    func decode(_ image: VideoFrame, into target: UnsafeMutablePointer<AVFrame>) throws -> Bool {
        if let turbo, try turbo.decode(image, into: target) { return true }
        if context == nil { context = try FrameDecoder.open(format) }
        let context = context!
        let subject = "\(format.rawValue) frame \(image.sequence)"
        av_packet_unref(packet)
        try check(av_new_packet(packet, Int32(clamping: image.byteCount)), "av_new_packet", subject)
        packet.pointee.data.update(from: image.buffer.bytes.assumingMemoryBound(to: UInt8.self), count: image.byteCount)
        try check(avcodec_send_packet(context.pointer, packet), "avcodec_send_packet", subject)
        av_packet_unref(packet)
        av_frame_unref(target)
        let received = avcodec_receive_frame(context.pointer, target)
        if received == cffmpeg_averror_eagain() { return false }
        try check(received, "avcodec_receive_frame", subject)
        return true
    }
}
