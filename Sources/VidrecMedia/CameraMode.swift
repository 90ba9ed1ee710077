/// One way a camera can deliver frames: a pixel format, a size and a frame rate.
public struct CameraMode: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The device's FOURCC (`YUYV`, `MJPG`, …), even when vidrec cannot use it.
    public var fourcc: String
    /// The matching ``PixelFormat``, or `nil` for formats vidrec does not read.
    public var pixelFormat: PixelFormat? { PixelFormat(rawValue: fourcc) }
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Frames per second.
    public var frameRate: Rational
    /// Whether libv4l converts to this format in software (the device does not offer it).
    public var emulated: Bool

    /// Creates a mode.
    public init(fourcc: String, width: Int, height: Int, frameRate: Rational, emulated: Bool = false) {
        self.fourcc = fourcc
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.emulated = emulated
    }

    /// `1280x720 MJPG 30 fps`.
    public var description: String { "\(width)x\(height) \(fourcc) \(frameRate) fps" }
}
