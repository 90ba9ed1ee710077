import CFFmpeg

/// Owns an `AVCodecParameters`: a copy of an opened encoder's parameters, from which any
/// number of muxers make their streams.
///
/// The corresponding C functions are `avcodec_parameters_alloc`,
/// `avcodec_parameters_from_context` and `avcodec_parameters_free`.
final class OwnedCodecParameters {
    /// The parameters; valid while this owner lives.
    let pointer: UnsafeMutablePointer<AVCodecParameters>

    /// Copies the parameters of the opened encoder `context`; `subject` names it in errors.
    init(copying context: UnsafePointer<AVCodecContext>, subject: String) throws(FFmpegError) {
        pointer = try allocated(avcodec_parameters_alloc(), "avcodec_parameters_alloc", subject)
        do {
            try check(avcodec_parameters_from_context(pointer, context), "avcodec_parameters_from_context", subject)
        } catch {
            var parameters: UnsafeMutablePointer<AVCodecParameters>? = pointer
            avcodec_parameters_free(&parameters)
            throw error
        }
    }

    /// Allocates empty parameters, to be filled by the caller (a copied stream's).
    init(subject: String) throws(FFmpegError) {
        pointer = try allocated(avcodec_parameters_alloc(), "avcodec_parameters_alloc", subject)
    }

    deinit {
        var parameters: UnsafeMutablePointer<AVCodecParameters>? = pointer
        avcodec_parameters_free(&parameters)
    }
}
