import CFFmpeg

/// Owns an `AVCodecContext`: allocated for one codec, freed when the owner goes.
///
/// The corresponding C functions are `avcodec_alloc_context3` and `avcodec_free_context`.
final class CodecContext {
    /// The context; valid while this owner lives.
    let pointer: UnsafeMutablePointer<AVCodecContext>

    /// Allocates a context for `codec`; `subject` names it in errors.
    init(codec: UnsafePointer<AVCodec>, subject: String) throws(FFmpegError) {
        pointer = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3", subject)
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&context)
    }
}
