import CFFmpeg

/// Owns a muxer's context, and its `AVIOContext` when it opened one (``openURL(_:options:interrupt:subject:)``).
///
/// The corresponding C functions are `avformat_alloc_output_context2`, `avio_open`,
/// `avio_closep` and `avformat_free_context`.
final class OutputFormatContext {
    /// The muxer; valid while this owner lives.
    let pointer: UnsafeMutablePointer<AVFormatContext>
    private var ownsIO = false

    /// Allocates a context for the muxer `muxer` writing `path`.
    init(muxer: String, path: String) throws(FFmpegError) {
        var context: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&context, nil, muxer, path), "avformat_alloc_output_context2", muxer)
        pointer = context!
    }

    /// Opens `url` (a network protocol such as `rtmp://` or `srt://`) for writing, with
    /// `interrupt` deciding when a blocking call gives up; closed with the owner.
    /// The corresponding C function is `avio_open2`.
    func openURL(_ url: String, options: [(String, String)], interrupt: AVIOInterruptCB, subject: String) throws(FFmpegError) {
        var callback = interrupt
        try OptionDictionary.with(options) { (dictionary) throws(FFmpegError) in
            try check(avio_open2(&pointer.pointee.pb, url, AVIO_FLAG_WRITE, &callback, &dictionary), "avio_open2", subject)
        }
        ownsIO = true
    }

    /// Writes the header with the muxer `options`. The corresponding C function is
    /// `avformat_write_header`.
    func writeHeader(options: [(String, String)], subject: String) throws(FFmpegError) {
        try OptionDictionary.with(options) { (dictionary) throws(FFmpegError) in
            try check(avformat_write_header(pointer, &dictionary), "avformat_write_header", subject)
        }
    }

    deinit {
        if ownsIO { avio_closep(&pointer.pointee.pb) }
        avformat_free_context(pointer)
    }
}
