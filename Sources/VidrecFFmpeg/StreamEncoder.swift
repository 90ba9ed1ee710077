import CFFmpeg

/// One output stream and the encoder that feeds it, as in FFmpeg's `mux.c`
/// (`OutputStream`): the owner frees its codec context, frames and converters.
protocol StreamEncoder: AnyObject {
    /// The opened encoder; its time base is the one frame timestamps are counted in.
    var codecContext: UnsafeMutablePointer<AVCodecContext> { get }
    /// The muxer's stream; packets are rescaled into its time base.
    var stream: UnsafeMutablePointer<AVStream> { get }
    /// The encoder's name, for messages.
    var name: String { get }
    /// The duration to give packets that the encoder leaves at 0 (x264 does), in the
    /// codec time base. Without it the MP4 muxer drops the last frame's duration.
    var defaultPacketDuration: Int64 { get }
}

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
                              hint: "check the preset's value for this encoder")
        }
    }
}
