/// A camera's compressed stream stored as it is, instead of decoded and encoded again
/// (`--video copy`): what a muxer needs to know of it.
public struct CopiedStream: Sendable, Equatable {
    /// The camera's format: ``PixelFormat/h264``, ``PixelFormat/mjpeg`` or ``PixelFormat/jpeg``.
    public var format: PixelFormat
    /// H.264's sequence and picture parameter sets (Annex B), from the camera's first
    /// keyframe; empty for JPEG.
    public var header: [UInt8]

    /// Creates a description of a copied stream.
    public init(format: PixelFormat, header: [UInt8]) {
        self.format = format
        self.header = header
    }
}
