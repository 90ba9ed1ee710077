/// Audio encoding parameters.
public struct AudioEncoding: Sendable, Equatable {
    /// FFmpeg encoder name, such as `aac`.
    public var codec: String
    /// Samples per second.
    public var sampleRate: Int
    /// Channels (1 or 2).
    public var channels: Int
    /// Target bits per second.
    public var bitRate: Int

    /// Creates audio encoding parameters.
    public init(codec: String, sampleRate: Int, channels: Int, bitRate: Int) {
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitRate = bitRate
    }
}
