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
    /// Frames that correcting the microphone's clock drift adds (positive) or removes
    /// (negative) when the chunk is resampled (see ``AudioStretching``): on the movie's
    /// timeline the chunk lasts ``timelineLength`` frames. 0 for audio taken as it is.
    public var stretch: Int = 0

    /// The chunk's length on the movie's timeline, once stretched.
    public var timelineLength: Int { frameCount + stretch }

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

    /// The frames `range` of this chunk, copied and not stretched; the capture time moves
    /// with the start.
    public func slice(_ range: Range<Int>) -> AudioChunk {
        let bytesPerFrame = format.bytesPerFrame
        let copy = FrameBuffer(copying: buffer.bytes + range.lowerBound * bytesPerFrame,
                               count: range.count * bytesPerFrame)
        let shift = format.nanoseconds(ofFrames: Int64(range.lowerBound))
        return AudioChunk(format: format, buffer: copy, frameCount: range.count, captureTime: captureTime + shift)
    }
}
