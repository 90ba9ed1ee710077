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
        /// The end of what plays through without a hole, in seconds: `duration`, or less
        /// when the stream was cut short after a frame whose B-frames, shown before it,
        /// were not written (see ``PlayedSpan``).
        public var playsThrough: Double
    }

    /// The streams, in file order.
    public var streams: [Stream]
    /// How much of the file plays with both sound and picture, in seconds: where the
    /// first stream to stop playing through stops (recovering a crashed recording trims
    /// the streams to about there). A clock track's timed text does not count.
    public var playableDuration: Double {
        streams.filter { $0.packets > 0 && $0.kind != "subtitle" }.map(\.playsThrough).min() ?? 0
    }
}
