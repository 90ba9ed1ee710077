import CFFmpeg

/// Applies the encoder options vidrec uses to `context.priv_data`.
enum EncoderOptions {
    /// Whether the encoder has a private option called `name`. The corresponding C
    /// function is `av_opt_find`.
    static func has(_ context: UnsafeMutablePointer<AVCodecContext>, _ name: String) -> Bool {
        guard let priv = context.pointee.priv_data else { return false }
        return av_opt_find(priv, name, nil, 0, 0) != nil
    }

    /// Sets a private option. The corresponding C function is `av_opt_set`.
    static func set(_ context: UnsafeMutablePointer<AVCodecContext>, _ name: String, _ value: String,
                    codec: String) throws(FFmpegError) {
        let result = av_opt_set(context.pointee.priv_data, name, value, 0)
        if result < 0 {
            throw FFmpegError("av_opt_set \(name)=\(value)", codec, code: result,
                              hint: "check the preset's value for this encoder", kind: .unsupportedSettings)
        }
    }
}
