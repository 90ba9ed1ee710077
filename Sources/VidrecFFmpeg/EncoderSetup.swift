import CFFmpeg

/// The steps every stream encoder takes, before and after setting its own parameters.
enum EncoderSetup {
    /// What ``begin(_:in:)`` allocates. The stream belongs to the format context; the
    /// codec context and the frame belong to the encoder that asked.
    struct Parts {
        let codec: UnsafePointer<AVCodec>
        let stream: UnsafeMutablePointer<AVStream>
        let context: UnsafeMutablePointer<AVCodecContext>
        let frame: UnsafeMutablePointer<AVFrame>
    }

    /// Finds the encoder called `name`, adds a stream to `format`, and allocates a codec
    /// context (with global headers if the container wants them) and a frame.
    ///
    /// The corresponding C functions are `avcodec_find_encoder_by_name`,
    /// `avformat_new_stream`, `avcodec_alloc_context3` and `av_frame_alloc`.
    static func begin(_ name: String, in format: UnsafeMutablePointer<AVFormatContext>) throws(FFmpegError) -> Parts {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw FFmpegError("avcodec_find_encoder_by_name", name, code: cffmpeg_averror(ENOENT),
                              hint: "no such encoder in this FFmpeg; `ffmpeg -encoders` lists them")
        }
        let stream = try allocated(avformat_new_stream(format, nil), "avformat_new_stream", name)
        let context = try allocated(avcodec_alloc_context3(codec), "avcodec_alloc_context3", name)
        guard let frame = av_frame_alloc() else {
            var owned: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&owned)
            throw FFmpegError("av_frame_alloc", name, code: cffmpeg_averror(ENOMEM))
        }
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        return Parts(codec: codec, stream: stream, context: context, frame: frame)
    }

    /// Opens the encoder with the parameters set on its context and copies them to the
    /// stream. The corresponding C functions are `avcodec_open2` and
    /// `avcodec_parameters_from_context`.
    static func open(_ parts: Parts, name: String) throws(FFmpegError) {
        try check(avcodec_open2(parts.context, parts.codec, nil), "avcodec_open2", name)
        try check(avcodec_parameters_from_context(parts.stream.pointee.codecpar, parts.context),
                  "avcodec_parameters_from_context", name)
    }
}
