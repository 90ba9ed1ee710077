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
