import CFFmpeg

/// The steps every stream encoder takes, before and after setting its own parameters.
enum EncoderSetup {
    /// What ``begin(_:in:)`` allocates. The stream belongs to the format context; the
    /// codec context and the frame are owners, kept by the encoder that asked (and freed
    /// with it, also when its initializer throws later).
    struct Parts {
        let codec: UnsafePointer<AVCodec>
        let stream: UnsafeMutablePointer<AVStream>
        let context: CodecContext
        let frame: OwnedFrame
    }

    /// Finds the encoder called `name`, adds a stream to `format`, and allocates a codec
    /// context (with global headers if the container wants them) and a frame.
    ///
    /// The corresponding C functions are `avcodec_find_encoder_by_name`,
    /// `avformat_new_stream`, `avcodec_alloc_context3` and `av_frame_alloc`.
    static func begin(_ name: String, in format: UnsafeMutablePointer<AVFormatContext>) throws(FFmpegError) -> Parts {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw FFmpegError("avcodec_find_encoder_by_name", name, code: cffmpeg_averror(ENOENT),
                              hint: "no such encoder in this FFmpeg; `ffmpeg -encoders` lists them", kind: .unsupportedSettings)
        }
        let stream = try allocated(avformat_new_stream(format, nil), "avformat_new_stream", name)
        let context = try CodecContext(codec: codec, subject: name)
        let frame = try OwnedFrame(subject: name)
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            context.pointer.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        return Parts(codec: codec, stream: stream, context: context, frame: frame)
    }

    /// Opens the encoder with the parameters set on its context and copies them to the
    /// stream. The corresponding C functions are `avcodec_open2` and
    /// `avcodec_parameters_from_context`.
    static func open(_ parts: Parts, name: String) throws(FFmpegError) {
        try check(avcodec_open2(parts.context.pointer, parts.codec, nil), "avcodec_open2", name, kind: .unsupportedSettings)
        try check(avcodec_parameters_from_context(parts.stream.pointee.codecpar, parts.context.pointer),
                  "avcodec_parameters_from_context", name)
    }
}
