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
    /// How much of the file plays with both sound and picture, in seconds: the shortest
    /// stream's duration (recovering a crashed recording trims the streams to it).
    public var playableDuration: Double { streams.filter { $0.packets > 0 }.map(\.duration).min() ?? 0 }
}
