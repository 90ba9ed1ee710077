/// Sample layouts that audio sources deliver.
public enum AudioSampleFormat: String, Sendable {
    /// Signed 16-bit, interleaved.
    case s16 = "S16_LE"
    /// Signed 32-bit, interleaved.
    case s32 = "S32_LE"
    /// 32-bit float, interleaved.
    case float32 = "FLOAT_LE"

    /// Bytes in one sample of one channel.
    public var bytesPerSample: Int { self == .s16 ? 2 : 4 }
}

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

    public var description: String { "\(sampleRate) Hz, \(channels) ch, \(sampleFormat.rawValue)" }
}

/// A run of interleaved audio frames and the capture time of its first frame.
public struct AudioChunk: Sendable {
    /// The layout of ``buffer``.
    public let format: AudioFormat
    /// Interleaved samples.
    public let buffer: FrameBuffer
    /// How many frames (samples per channel) the chunk holds.
    public let frameCount: Int
    /// Capture time of the first frame in nanoseconds on CLOCK_MONOTONIC.
    public let captureTime: Int64

    /// Creates a chunk; see the properties for the meaning of each argument.
    public init(format: AudioFormat, buffer: FrameBuffer, frameCount: Int, captureTime: Int64) {
        precondition(buffer.count >= frameCount * format.bytesPerFrame, "audio chunk larger than its buffer")
        self.format = format
        self.buffer = buffer
        self.frameCount = frameCount
        self.captureTime = captureTime
    }

    /// A chunk of `frameCount` frames of silence.
    public static func silence(format: AudioFormat, frameCount: Int, captureTime: Int64) -> AudioChunk {
        let buffer = FrameBuffer(count: frameCount * format.bytesPerFrame)
        buffer.bytes.initializeMemory(as: UInt8.self, repeating: 0, count: buffer.count)
        return AudioChunk(format: format, buffer: buffer, frameCount: frameCount, captureTime: captureTime)
    }

    /// The frames `range` of this chunk, copied; the capture time moves with the start.
    public func slice(_ range: Range<Int>) -> AudioChunk {
        let bytesPerFrame = format.bytesPerFrame
        let copy = FrameBuffer(copying: buffer.bytes + range.lowerBound * bytesPerFrame,
                               count: range.count * bytesPerFrame)
        let shift = Int64(range.lowerBound) * 1_000_000_000 / Int64(format.sampleRate)
        return AudioChunk(format: format, buffer: copy, frameCount: range.count, captureTime: captureTime + shift)
    }
}
