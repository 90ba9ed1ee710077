import CFFmpeg
import VidrecMedia

/// Corrects a microphone's clock drift with libswresample, as FFmpeg's `aresample=async`
/// does: each chunk is resampled in its own format and rate, `stretch` frames longer or
/// shorter (`swr_set_compensation` over the chunk's length), so the sound is neither cut
/// nor padded and keeps its shape.
///
/// Resampling runs from the first chunk on, so nothing changes in the sound when the
/// correction starts or stops; the filter holds back a few frames (under a millisecond),
/// which ``drain()`` returns at the end.
public final class DriftResampler: AudioStretching {
    private let format: AudioFormat
    private let resampler: Resampler

    /// Makes a resampler for audio in `format`.
    ///
    /// - Throws: ``FFmpegError`` from libswresample.
    /// The corresponding C functions are `swr_alloc_set_opts2`, `swr_init` and
    /// `swr_set_compensation`.
    public init(format: AudioFormat) throws {
        self.format = format
        var layout = AVChannelLayout()
        av_channel_layout_default(&layout, Int32(format.channels))
        var outputLayout = AVChannelLayout()
        av_channel_layout_default(&outputLayout, Int32(format.channels))
        defer {
            av_channel_layout_uninit(&layout)
            av_channel_layout_uninit(&outputLayout)
        }
        let sampleFormat = format.sampleFormat.avSampleFormat
        let rate = Int32(format.sampleRate)
        resampler = try Resampler(from: &layout, sampleFormat, rate, to: &outputLayout, sampleFormat, rate,
                                  subject: "drift correction of \(format)")
        // Equal rates would otherwise pass samples straight through; this turns the
        // resampler on now, before any audio, rather than part-way through.
        try check(swr_set_compensation(resampler.pointer, 0, 0), "swr_set_compensation", "drift correction")
    }

    public func stretch(_ chunk: AudioChunk) throws -> [AudioChunk] {
        precondition(chunk.format == format, "a drift resampler takes one format")
        if chunk.stretch != 0 {
            try check(swr_set_compensation(resampler.pointer, Int32(chunk.stretch), Int32(chunk.timelineLength)),
                      "swr_set_compensation", "drift correction")
        }
        return try convert(chunk.buffer.bytes, frameCount: chunk.frameCount, captureTime: chunk.captureTime)
    }

    public func drain() throws -> [AudioChunk] {
        try convert(nil, frameCount: 0, captureTime: 0)
    }

    private func convert(_ samples: UnsafeMutableRawPointer?, frameCount: Int, captureTime: Int64) throws -> [AudioChunk] {
        let capacity = Int(swr_get_out_samples(resampler.pointer, Int32(frameCount))) + 16
        let output = FrameBuffer(count: capacity * format.bytesPerFrame)
        var outputPlane: UnsafeMutablePointer<UInt8>? = output.bytes.assumingMemoryBound(to: UInt8.self)
        var inputPlane: UnsafePointer<UInt8>? = samples.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) }
        let produced = try withUnsafeMutablePointer(to: &outputPlane) { outputs in
            try withUnsafeMutablePointer(to: &inputPlane) { inputs in
                try check(swr_convert(resampler.pointer, outputs, Int32(capacity), samples == nil ? nil : inputs,
                                      Int32(frameCount)), "swr_convert", "drift correction")
            }
        }
        guard produced > 0 else { return [] }
        return [AudioChunk(format: format, buffer: output, frameCount: Int(produced), captureTime: captureTime)]
    }
}
