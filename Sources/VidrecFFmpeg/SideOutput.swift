/// An output beside the movie file that takes the encoder's own packets (a live stream
/// to a server), made once the encoder's streams exist and connected with the
/// ``PacketPolicy/sideOutput`` policy: it never costs the file a packet, and its
/// failure is reported while the recording goes on.
public struct SideOutput: Sendable {
    /// Whether the output needs the codecs' headers in the stream parameters (FLV and
    /// RTSP do; MPEG-TS repeats them in the stream), which the encoder must know before
    /// it opens.
    public var wantsGlobalHeader: Bool
    /// Its thread's name (at most 15 bytes show).
    public var threadName: String
    /// Makes the output for the encoder's streams; throws to refuse them (a codec the
    /// protocol cannot carry) before anything is opened.
    public var make: @Sendable ([EncodedStream]) throws -> any PacketOutput

    /// Creates an output beside the file; see the properties for the meaning of each argument.
    public init(wantsGlobalHeader: Bool, threadName: String, make: @escaping @Sendable ([EncodedStream]) throws -> any PacketOutput) {
        self.wantsGlobalHeader = wantsGlobalHeader
        self.threadName = threadName
        self.make = make
    }
}
