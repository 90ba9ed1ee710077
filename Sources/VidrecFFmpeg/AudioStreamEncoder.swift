import CFFmpeg
import VidrecMedia

/// The audio stream of a movie: its encoder, the resampler from the microphone's
/// format to the encoder's, and the FIFO that cuts audio into encoder-sized frames.
final class AudioStreamEncoder: StreamEncoder {
    let stream: EncodedStream
    let name: String
    var defaultPacketDuration: Int64 { Int64(frameSize) }
    var codecContext: UnsafeMutablePointer<AVCodecContext> { context.pointer }

    private let context: CodecContext
    private let ownedFrame: OwnedFrame
    private var frame: UnsafeMutablePointer<AVFrame> { ownedFrame.pointer }
    private let fifo: AudioFIFO
    private var resampler: Resampler?
    private var resamplerInput: AudioFormat?
    private let frameSize: Int32
    private let acceptsShortLastFrame: Bool
    private var samplesEncoded: Int64 = 0

    /// Opens the encoder.
    ///
    /// - Parameters:
    ///   - globalHeader: whether a muxer it feeds wants the codec's headers in the
    ///     stream parameters (``EncoderSetup/begin(_:globalHeader:)``).
    ///   - firstSample: the timestamp of its first sample (a later segment's start).
    init(settings: AudioEncoding, globalHeader: Bool, firstSample: Int64 = 0) throws {
        samplesEncoded = firstSample
        name = settings.codec
        let parts = try EncoderSetup.begin(settings.codec, globalHeader: globalHeader)
        let codec = parts.codec
        context = parts.context
        ownedFrame = parts.frame

        let cc = parts.context.pointer
        let first = cffmpeg_encoder_first_sample_format(cc, codec)
        cc.pointee.sample_fmt = first == AV_SAMPLE_FMT_NONE ? AV_SAMPLE_FMT_FLTP : first
        cc.pointee.sample_rate = Int32(settings.sampleRate)
        cc.pointee.bit_rate = Int64(settings.bitRate)
        cc.pointee.time_base = AVRational(num: 1, den: Int32(settings.sampleRate))
        av_channel_layout_default(&cc.pointee.ch_layout, Int32(settings.channels))
        stream = try EncoderSetup.open(parts, kind: .audio, name: settings.codec)

        let capabilities = codec.pointee.capabilities
        let variable = capabilities & AV_CODEC_CAP_VARIABLE_FRAME_SIZE != 0
        frameSize = variable || cc.pointee.frame_size == 0 ? 1024 : cc.pointee.frame_size
        acceptsShortLastFrame = variable || capabilities & AV_CODEC_CAP_SMALL_LAST_FRAME != 0
        fifo = try AudioFIFO(format: cc.pointee.sample_fmt, channels: Int32(settings.channels), samples: frameSize * 4,
                             subject: settings.codec)
    }

    /// Resamples `chunk` into the FIFO and hands every whole encoder frame to `encode`.
    func append(_ chunk: AudioChunk, encode: (UnsafeMutablePointer<AVFrame>) throws -> Void) throws {
        try convert(chunk.buffer.bytes, frameCount: Int32(chunk.frameCount), format: chunk.format)
        try emitFrames(flushing: false, encode: encode)
    }

    /// Drains the resampler and the FIFO; the last frame is short (or padded with
    /// silence, for encoders that need whole frames).
    func drain(encode: (UnsafeMutablePointer<AVFrame>) throws -> Void) throws {
        if let format = resamplerInput { try convert(nil, frameCount: 0, format: format) }
        try emitFrames(flushing: true, encode: encode)
    }

    private func convert(_ samples: UnsafeMutableRawPointer?, frameCount: Int32, format: AudioFormat) throws {
        if resampler == nil || resamplerInput != format {
            try makeResampler(for: format)
        }
        let cc = codecContext.pointee
        let capacity = swr_get_out_samples(resampler?.pointer, frameCount)
        guard capacity > 0 else { return }
        var scratch: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?
        var lineSize: Int32 = 0
        try check(av_samples_alloc_array_and_samples(&scratch, &lineSize, cc.ch_layout.nb_channels, capacity,
                                                     cc.sample_fmt, 0), "av_samples_alloc", name)
        defer {
            av_freep(&scratch![0])
            av_freep(&scratch)
        }
        var input: UnsafePointer<UInt8>? = samples.map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) }
        let converted = try withUnsafeMutablePointer(to: &input) { inputPlanes in
            try check(swr_convert(resampler?.pointer, scratch, capacity, samples == nil ? nil : inputPlanes, frameCount),
                      "swr_convert", name)
        }
        guard converted > 0 else { return }
        let written = scratch!.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) {
            av_audio_fifo_write(fifo.pointer, $0, converted)
        }
        try check(written, "av_audio_fifo_write", name)
    }

    private func makeResampler(for input: AudioFormat) throws {
        resampler = nil
        var inLayout = AVChannelLayout()
        av_channel_layout_default(&inLayout, Int32(input.channels))
        defer { av_channel_layout_uninit(&inLayout) }
        let inFormat = input.sampleFormat.avSampleFormat
        let cc = codecContext
        resampler = try Resampler(from: &inLayout, inFormat, Int32(input.sampleRate),
                                  to: &cc.pointee.ch_layout, cc.pointee.sample_fmt, cc.pointee.sample_rate,
                                  subject: "\(input) to \(name)")
        resamplerInput = input
    }

    private func emitFrames(flushing: Bool, encode: (UnsafeMutablePointer<AVFrame>) throws -> Void) throws {
        let cc = codecContext.pointee
        while true {
            let available = av_audio_fifo_size(fifo.pointer)
            if available == 0 || (!flushing && available < frameSize) { return }
            let count = min(available, frameSize)
            av_frame_unref(frame)
            frame.pointee.nb_samples = acceptsShortLastFrame ? count : frameSize
            frame.pointee.format = cc.sample_fmt.rawValue
            frame.pointee.sample_rate = cc.sample_rate
            try check(av_channel_layout_copy(&frame.pointee.ch_layout, &codecContext.pointee.ch_layout),
                      "av_channel_layout_copy", name)
            try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer", name)
            if count < frame.pointee.nb_samples {
                try check(av_samples_set_silence(frame.pointee.extended_data, 0, frame.pointee.nb_samples,
                                                 cc.ch_layout.nb_channels, cc.sample_fmt), "av_samples_set_silence", name)
            }
            let read = frame.pointee.extended_data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) {
                av_audio_fifo_read(fifo.pointer, $0, count)
            }
            try check(read, "av_audio_fifo_read", name)
            frame.pointee.pts = samplesEncoded
            samplesEncoded += Int64(frame.pointee.nb_samples)
            try encode(frame)
        }
    }
}
