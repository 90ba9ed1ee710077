import CFFmpeg

/// Owns a muxer's context, and its `AVIOContext` when the muxer opened it itself.
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

    /// Opens `path` for writing through libavformat's own I/O; closed with the owner.
    func openFile(_ path: String) throws(FFmpegError) {
        try check(avio_open(&pointer.pointee.pb, path, AVIO_FLAG_WRITE), "avio_open", path)
        ownsIO = true
    }

    /// Opens `url` (a network protocol such as `rtmp://` or `srt://`) for writing, with
    /// `interrupt` deciding when a blocking call gives up; closed with the owner.
    /// The corresponding C function is `avio_open2`.
    func openURL(_ url: String, options: [(String, String)], interrupt: AVIOInterruptCB, subject: String) throws(FFmpegError) {
        var callback = interrupt
        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        for (key, value) in options {
            av_dict_set(&dictionary, key, value, 0)
        }
        try check(avio_open2(&pointer.pointee.pb, url, AVIO_FLAG_WRITE, &callback, &dictionary), "avio_open2", subject)
        ownsIO = true
    }

    deinit {
        if ownsIO { avio_closep(&pointer.pointee.pb) }
        avformat_free_context(pointer)
    }
}
