/// Where a ``MovieEncoder`` sends its packets: a movie file, later a segment writer or a
/// live stream. Encode once, mux many: every packet output of one encoder gets the same
/// packets, so three outputs cost one x264 encode.
///
/// A packet output is driven from one thread at a time, its ``PacketConnection``'s, so it
/// needs no locking of its own.
public protocol PacketOutput: AnyObject {
    /// A name for messages, such as `movie file /home/me/…/20261130-101500.mp4`.
    var outputName: String { get }

    /// Writes one packet; packets of each stream come in decoding order.
    func write(_ packet: EncodedPacket) throws

    /// Writes the trailer and closes the file or the connection. Called once, also after
    /// a write has thrown (to close what was written so far).
    func finish() throws

    /// Bytes written so far.
    var bytesWritten: Int64 { get }
}
