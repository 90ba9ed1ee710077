import CFFmpeg
import VidrecMedia

/// Decodes Motion-JPEG camera frames with libavcodec's `mjpeg` decoder.
final class MJPEGDecoder {
    private let context: UnsafeMutablePointer<AVCodecContext>
    private let packet: UnsafeMutablePointer<AVPacket>
    /// The most recently decoded picture; valid until the next ``decode(_:)``.
    let frame: UnsafeMutablePointer<AVFrame>

    /// Opens the decoder.
    init() throws {
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_MJPEG) else {
            throw FFmpegError("avcodec_find_decoder", "mjpeg", code: cffmpeg_averror(ENOSYS),
                              hint: "this FFmpeg build has no MJPEG decoder")
        }
        context = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3", "mjpeg")
        packet = try allocated(av_packet_alloc(), "av_packet_alloc", "mjpeg")
        frame = try allocated(av_frame_alloc(), "av_frame_alloc", "mjpeg")
        try check(avcodec_open2(context, codec, nil), "avcodec_open2", "mjpeg")
    }

    /// Decodes one JPEG image into ``frame``.
    ///
    /// - Throws: ``FFmpegError`` for a corrupt image (cameras do send those).
    func decode(_ image: VideoFrame) throws {
        av_packet_unref(packet)
        packet.pointee.data = image.buffer.bytes.assumingMemoryBound(to: UInt8.self)
        packet.pointee.size = Int32(image.byteCount)
        defer { packet.pointee.data = nil; packet.pointee.size = 0 }
        try check(avcodec_send_packet(context, packet), "avcodec_send_packet", "mjpeg frame \(image.sequence)")
        av_frame_unref(frame)
        try check(avcodec_receive_frame(context, frame), "avcodec_receive_frame", "mjpeg frame \(image.sequence)")
    }

    deinit {
        var ctx: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&ctx)
        var pkt: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&pkt)
        var frm: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&frm)
    }
}
