import CFFmpeg
import CSystemShims
import VidrecMedia

/// Decodes compressed camera frames with libavcodec: Motion JPEG (`MJPG`, `JPEG`) with
/// the `mjpeg` decoder, H.264 access units with the `h264` decoder (slice threads and
/// low delay, so that each access unit gives its picture at once).
///
/// Each frame is copied into a packet padded as libavcodec requires
/// (`AV_INPUT_BUFFER_PADDING_SIZE` zero bytes after the data: a driver's buffer ends
/// where the JPEG ends). JPEGs without Huffman tables, as many UVC cameras send, decode
/// with the standard tables (libavcodec's default).
final class FrameDecoder {
    /// The format decoded.
    let format: PixelFormat
    private let context: CodecContext
    private let packetOwner: OwnedPacket
    private let frameOwner: OwnedFrame
    private var packet: UnsafeMutablePointer<AVPacket> { packetOwner.pointer }
    /// The most recently decoded picture; valid until the next ``decode(_:)``.
    var frame: UnsafeMutablePointer<AVFrame> { frameOwner.pointer }

    /// Opens the decoder for frames in `format`, a compressed format.
    init(for format: PixelFormat) throws {
        let id = format == .h264 ? AV_CODEC_ID_H264 : AV_CODEC_ID_MJPEG
        let name = format.codecName ?? format.rawValue
        guard format.isCompressed, let codec = avcodec_find_decoder(id) else {
            throw FFmpegError("avcodec_find_decoder", name, code: cffmpeg_averror(ENOSYS),
                              hint: "this FFmpeg build has no \(name) decoder")
        }
        self.format = format
        context = try CodecContext(codec: codec, subject: name)
        packetOwner = try OwnedPacket(subject: name)
        frameOwner = try OwnedFrame(subject: name)
        if format == .h264 {
            // Slice threads add no delay; frame threads would hold pictures back.
            context.pointer.pointee.flags |= AV_CODEC_FLAG_LOW_DELAY
            context.pointer.pointee.thread_type = FF_THREAD_SLICE
            context.pointer.pointee.thread_count = min(4, max(1, Int32(csystem_available_processors())))
        }
        try check(avcodec_open2(context.pointer, codec, nil), "avcodec_open2", name)
    }

    /// Decodes one frame into ``frame``.
    ///
    /// - Returns: whether a picture came out (an H.264 frame that follows a lost one may
    ///   give none until the next keyframe).
    /// - Throws: ``FFmpegError`` for a corrupt frame (cameras do send those).
    @discardableResult
    func decode(_ image: VideoFrame) throws -> Bool {
        let subject = "\(format.rawValue) frame \(image.sequence)"
        av_packet_unref(packet)
        try check(av_new_packet(packet, Int32(clamping: image.byteCount)), "av_new_packet", subject)
        packet.pointee.data.update(from: image.buffer.bytes.assumingMemoryBound(to: UInt8.self), count: image.byteCount)
        try check(avcodec_send_packet(context.pointer, packet), "avcodec_send_packet", subject)
        av_packet_unref(packet)
        av_frame_unref(frame)
        let received = avcodec_receive_frame(context.pointer, frame)
        if received == cffmpeg_averror_eagain() { return false }
        try check(received, "avcodec_receive_frame", subject)
        return true
    }
}
