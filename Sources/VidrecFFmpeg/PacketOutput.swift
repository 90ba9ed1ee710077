/// Where a ``MovieEncoder`` sends its packets: a movie file, a file per segment or per
/// event, a live stream. Encode once, mux many: every packet output of one encoder gets
/// the same packets, so three outputs cost one x264 encode.
///
/// A packet output is driven from one thread at a time, its ``PacketConnection``'s, so it
/// needs no locking of its own; ``inputEnded()`` is the one exception.
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

    /// Says that the recording is ending: what is queued is the last of it. Called on the
    /// encoder's thread while the output's thread may be writing, so an output that acts
    /// on it must do so atomically. A live stream then stops trying to connect, so that
    /// a server that does not answer cannot hold up the end of the recording.
    func inputEnded()

    /// Says, just before ``finish()`` and on the output's thread, how many video
    /// packets its ``PacketConnection`` dropped because the output fell behind (they
    /// never reached ``write(_:)``), so that its summary can count them.
    func queueDropped(videoPackets: Int64)
}

extension PacketOutput {
    public func inputEnded() {}
    public func queueDropped(videoPackets: Int64) {}
}
