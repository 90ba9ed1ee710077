import CFFmpeg

/// One encoded stream and its encoder, as in FFmpeg's `mux.c` (`OutputStream`), less the
/// muxer's stream: the owner frees its codec context, frames and converters, and every
/// muxer it feeds makes its own stream from ``stream``.
protocol StreamEncoder: AnyObject {
    /// The opened encoder; its time base is the one frame timestamps are counted in.
    var codecContext: UnsafeMutablePointer<AVCodecContext> { get }
    /// The stream as muxers see it: parameters and time base.
    var stream: EncodedStream { get }
    /// The encoder's name, for messages.
    var name: String { get }
    /// The duration to give packets that the encoder leaves at 0 (x264 does), in the
    /// codec time base. Without it the MP4 muxer drops the last frame's duration.
    var defaultPacketDuration: Int64 { get }
}
