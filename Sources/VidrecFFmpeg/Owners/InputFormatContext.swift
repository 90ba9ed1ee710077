import CFFmpeg

/// Owns a demuxer opened on a file.
///
/// The corresponding C functions are `avformat_open_input`, `avformat_find_stream_info`
/// and `avformat_close_input`.
final class InputFormatContext {
    /// The demuxer; valid while this owner lives.
    let pointer: UnsafeMutablePointer<AVFormatContext>

    /// Opens `path`, reads its header, and reads as much as it takes to know its streams.
    init(path: String) throws(FFmpegError) {
        var context: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_open_input(&context, path, nil, nil), "avformat_open_input", path)
        pointer = context!
        try check(avformat_find_stream_info(pointer, nil), "avformat_find_stream_info", path)
    }

    deinit {
        var context: UnsafeMutablePointer<AVFormatContext>? = pointer
        avformat_close_input(&context)
    }
}
