import CFFmpeg

/// Owns a libswresample context.
///
/// The corresponding C functions are `swr_alloc_set_opts2`, `swr_init` and `swr_free`.
final class Resampler {
    /// The context; valid while this owner lives.
    private(set) var pointer: OpaquePointer?

    /// Makes a resampler from the `input` layout, format and rate to the `output` ones.
    init(from inputLayout: UnsafeMutablePointer<AVChannelLayout>, _ inputFormat: AVSampleFormat, _ inputRate: Int32,
         to outputLayout: UnsafeMutablePointer<AVChannelLayout>, _ outputFormat: AVSampleFormat, _ outputRate: Int32,
         subject: String) throws(FFmpegError) {
        try check(swr_alloc_set_opts2(&pointer, outputLayout, outputFormat, outputRate, inputLayout, inputFormat,
                                      inputRate, 0, nil), "swr_alloc_set_opts2", subject)
        try check(swr_init(pointer), "swr_init", subject)
    }

    deinit { swr_free(&pointer) }
}
