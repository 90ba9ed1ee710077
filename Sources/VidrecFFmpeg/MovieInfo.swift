import CFFmpeg
import VidrecMedia

/// What a movie file holds, read with libavformat.
public struct MovieInfo: Sendable {
    /// One stream of the file.
    public struct Stream: Sendable {
        /// `video` or `audio` (or another libavutil media type name).
        public var kind: String
        /// The codec name, such as `h264`.
        public var codec: String
        /// Packets read from the stream.
        public var packets: Int
        /// The end of the last packet, in seconds.
        public var duration: Double
    }

    /// The streams, in file order.
    public var streams: [Stream]
    /// The longest stream's duration, in seconds: how much of the file plays.
    public var playableDuration: Double { streams.map(\.duration).max() ?? 0 }
}
