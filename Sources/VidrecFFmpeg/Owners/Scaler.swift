import CFFmpeg

/// Owns a libswscale context, remade only when the conversion asked for changes.
///
/// The corresponding C functions are `sws_getCachedContext` and `sws_freeContext`.
final class Scaler {
    private var context: OpaquePointer?

    init() {}

    /// The context for this conversion (the one already held when nothing changed).
    func context(from width: Int32, _ height: Int32, _ format: AVPixelFormat,
                 to outputWidth: Int32, _ outputHeight: Int32, _ outputFormat: AVPixelFormat,
                 subject: String) throws(FFmpegError) -> OpaquePointer {
        context = sws_getCachedContext(context, width, height, format, outputWidth, outputHeight, outputFormat,
                                       SWS_BILINEAR, nil, nil, nil)
        guard let context else {
            throw FFmpegError("sws_getCachedContext", subject, code: cffmpeg_averror(EINVAL))
        }
        return context
    }

    deinit { sws_freeContext(context) }
}
