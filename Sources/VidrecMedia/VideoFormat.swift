/// The negotiated format of a video source.
public struct VideoFormat: Sendable, Equatable, CustomStringConvertible {
    /// Pixel layout of delivered frames.
    public var pixelFormat: PixelFormat
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Nominal frames per second.
    public var frameRate: Rational

    /// Creates a format.
    public init(pixelFormat: PixelFormat, width: Int, height: Int, frameRate: Rational) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }

    public var description: String { "\(width)x\(height) \(pixelFormat.rawValue) \(frameRate) fps" }

    /// How many frames make `seconds` of video at this rate (rounded up), but no more
    /// than `bytes` of them hold: the size of a queue bounded both in time and in memory.
    public func frameCount(seconds: Int, within bytes: Int) -> Int {
        let frames = Int(frameRate.doubleValue.rounded(.up)) * seconds
        return min(frames, bytes / max(1, pixelFormat.frameByteCount(width: width, height: height)))
    }
}
