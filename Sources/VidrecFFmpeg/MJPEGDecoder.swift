import CFFmpeg
import VidrecMedia

/// Decodes Motion-JPEG camera frames with libavcodec's `mjpeg` decoder.
final class MJPEGDecoder {
    private let context: CodecContext
    private let packetOwner: OwnedPacket
    private let frameOwner: OwnedFrame
    private var packet: UnsafeMutablePointer<AVPacket> { packetOwner.pointer }
    /// The most recently decoded picture; valid until the next ``decode(_:)``.
    var frame: UnsafeMutablePointer<AVFrame> { frameOwner.pointer }

    /// Opens the decoder.
    init() throws {
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_MJPEG) else {
            throw FFmpegError("avcodec_find_decoder", "mjpeg", code: cffmpeg_averror(ENOSYS),
                              hint: "this FFmpeg build has no MJPEG decoder")
        }
        context = try CodecContext(codec: codec, subject: "mjpeg")
        packetOwner = try OwnedPacket(subject: "mjpeg")
        frameOwner = try OwnedFrame(subject: "mjpeg")
        try check(avcodec_open2(context.pointer, codec, nil), "avcodec_open2", "mjpeg")
    }

    /// Decodes one JPEG image into ``frame``.
    ///
    /// - Throws: ``FFmpegError`` for a corrupt image (cameras do send those).
    func decode(_ image: VideoFrame) throws {
        av_packet_unref(packet)
        packet.pointee.data = image.buffer.bytes.assumingMemoryBound(to: UInt8.self)
        packet.pointee.size = Int32(image.byteCount)
        defer { packet.pointee.data = nil; packet.pointee.size = 0 }
        try check(avcodec_send_packet(context.pointer, packet), "avcodec_send_packet", "mjpeg frame \(image.sequence)")
        av_frame_unref(frame)
        try check(avcodec_receive_frame(context.pointer, frame), "avcodec_receive_frame", "mjpeg frame \(image.sequence)")
    }
}
