import CFFmpeg

/// Owns a demuxer opened on a file.
///
/// The corresponding C functions are `avformat_open_input` and `avformat_close_input`.
final class InputFormatContext {
    /// The demuxer; valid while this owner lives.
    let pointer: UnsafeMutablePointer<AVFormatContext>

    /// Opens `path` and reads its header.
    init(path: String) throws(FFmpegError) {
        var context: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_open_input(&context, path, nil, nil), "avformat_open_input", path)
        pointer = context!
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&context)
    }
}
