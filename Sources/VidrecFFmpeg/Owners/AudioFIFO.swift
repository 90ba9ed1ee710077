import CFFmpeg

/// Owns an `AVAudioFifo`.
///
/// The corresponding C functions are `av_audio_fifo_alloc` and `av_audio_fifo_free`.
final class AudioFIFO {
    /// The FIFO; valid while this owner lives.
    let pointer: OpaquePointer

    /// Allocates a FIFO of `format` samples in `channels` channels, first sized for `samples`.
    init(format: AVSampleFormat, channels: Int32, samples: Int32, subject: String) throws(FFmpegError) {
        pointer = try allocated(av_audio_fifo_alloc(format, channels, samples), "av_audio_fifo_alloc", subject)
    }

    deinit { av_audio_fifo_free(pointer) }
}
