import CFFmpeg

/// Options for an FFmpeg call that takes an `AVDictionary **`: built from pairs for the
/// call, and freed after it, with whatever the call left unused.
///
/// The corresponding C functions are `av_dict_set` and `av_dict_free`.
enum OptionDictionary {
    /// Runs `body` with a dictionary holding `pairs`, in order.
    @discardableResult
    static func with<T>(_ pairs: [(String, String)],
                        _ body: (inout OpaquePointer?) throws(FFmpegError) -> T) throws(FFmpegError) -> T {
        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        for (key, value) in pairs {
            av_dict_set(&dictionary, key, value, 0)
        }
        return try body(&dictionary)
    }
}
