import CFFmpeg

/// Owns an `AVFrame` (and the buffers it references).
///
/// The corresponding C functions are `av_frame_alloc` and `av_frame_free`.
final class OwnedFrame {
    /// The frame; valid while this owner lives.
    let pointer: UnsafeMutablePointer<AVFrame>

    /// Allocates an empty frame; `subject` names it in errors.
    init(subject: String) throws(FFmpegError) {
        pointer = try allocated(av_frame_alloc(), "av_frame_alloc", subject)
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&frame)
    }
}
