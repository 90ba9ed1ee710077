import CFFmpeg

/// Owns an `AVPacket` (and the data it references).
///
/// The corresponding C functions are `av_packet_alloc` and `av_packet_free`.
final class OwnedPacket {
    /// The packet; valid while this owner lives.
    let pointer: UnsafeMutablePointer<AVPacket>

    /// Allocates an empty packet; `subject` names it in errors.
    init(subject: String) throws(FFmpegError) {
        pointer = try allocated(av_packet_alloc(), "av_packet_alloc", subject)
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }
}
