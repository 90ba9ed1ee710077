/// One captured video frame and when it was captured.
public struct VideoFrame: Sendable {
    /// How the bytes are laid out.
    public let pixelFormat: PixelFormat
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// The pixels: planes one after another, each `strides[i]` bytes per row.
    public let buffer: FrameBuffer
    /// Bytes of `buffer` in use (a compressed frame is shorter than the buffer).
    public let byteCount: Int
    /// Bytes per row for each plane; the plane count follows from ``pixelFormat``.
    public let strides: [Int]
    /// Capture time of the frame in nanoseconds on CLOCK_MONOTONIC.
    public let captureTime: Int64
    /// The source's running frame number; a jump means the device dropped frames.
    public let sequence: UInt64
    /// Whether a decoder can start at this frame: always for raw and JPEG frames, for
    /// H.264 when it holds an IDR picture.
    public let isKeyframe: Bool

    /// Creates a frame; see the properties for the meaning of each argument.
    public init(
        pixelFormat: PixelFormat, width: Int, height: Int, buffer: FrameBuffer, byteCount: Int,
        strides: [Int], captureTime: Int64, sequence: UInt64, isKeyframe: Bool = true
    ) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.buffer = buffer
        self.byteCount = byteCount
        self.strides = strides
        self.captureTime = captureTime
        self.sequence = sequence
        self.isKeyframe = isKeyframe
    }
}
