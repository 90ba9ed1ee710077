import CFFmpeg
import VidrecMedia

/// The steps every stream encoder takes, before and after setting its own parameters.
enum EncoderSetup {
    /// What ``begin(_:globalHeader:)`` allocates: owners, kept by the encoder that asked
    /// (and freed with it, also when its initializer throws later).
    struct Parts {
        let codec: UnsafePointer<AVCodec>
        let context: CodecContext
        let frame: OwnedFrame
    }

    /// Finds the encoder called `name` and allocates a codec context and a frame.
    ///
    /// - Parameter globalHeader: put the codec's headers (H.264's SPS and PPS) in the
    ///   stream parameters rather than in the packets, as MP4 and Matroska want
    ///   (`AVFMT_GLOBALHEADER`).
    ///
    /// The corresponding C functions are `avcodec_find_encoder_by_name`,
    /// `avcodec_alloc_context3` and `av_frame_alloc`.
    static func begin(_ name: String, globalHeader: Bool) throws(FFmpegError) -> Parts {
        guard let codec = avcodec_find_encoder_by_name(name) else {
            throw FFmpegError("avcodec_find_encoder_by_name", name, code: cffmpeg_averror(ENOENT),
                              hint: "no such encoder in this FFmpeg; `ffmpeg -encoders` lists them", kind: .unsupportedSettings)
        }
        let context = try CodecContext(codec: codec, subject: name)
        let frame = try OwnedFrame(subject: name)
        if globalHeader {
            context.pointer.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        return Parts(codec: codec, context: context, frame: frame)
    }

    /// Opens the encoder with the parameters set on its context and describes the stream
    /// it makes, for the muxers. The corresponding C function is `avcodec_open2`.
    static func open(_ parts: Parts, kind: MediaKind, name: String) throws(FFmpegError) -> EncodedStream {
        try check(avcodec_open2(parts.context.pointer, parts.codec, nil), "avcodec_open2", name, kind: .unsupportedSettings)
        return try EncodedStream(kind: kind, encoder: parts.context.pointer, name: name)
    }
}
