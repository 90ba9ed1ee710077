/// The format of an audio source's stream.
public struct AudioFormat: Sendable, Equatable, CustomStringConvertible {
    /// Sample layout.
    public var sampleFormat: AudioSampleFormat
    /// Samples per second per channel.
    public var sampleRate: Int
    /// Interleaved channels.
    public var channels: Int

    /// Creates a format.
    public init(sampleFormat: AudioSampleFormat, sampleRate: Int, channels: Int) {
        self.sampleFormat = sampleFormat
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Bytes in one frame (one sample of every channel).
    public var bytesPerFrame: Int { sampleFormat.bytesPerSample * channels }

    /// How long `frames` frames last at this format's rate, in nanoseconds (rounded
    /// down), for capture timestamps.
    public func nanoseconds(ofFrames frames: Int64) -> Int64 {
        AudioFormat.nanoseconds(ofFrames: frames, rate: sampleRate)
    }

    /// How long `frames` frames last at `rate` frames a second, in nanoseconds (rounded
    /// down).
    public static func nanoseconds(ofFrames frames: Int64, rate: Int) -> Int64 {
        frames * Duration.nanosecondsPerSecond / Int64(rate)
    }

    public var description: String { "\(sampleRate) Hz, \(channels) ch, \(sampleFormat.rawValue)" }
}
