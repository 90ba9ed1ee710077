/// A still photo as encoded: the JPEG's bytes and the picture's size.
public struct EncodedPhoto: Sendable, Equatable {
    /// The JPEG file's contents.
    public var bytes: [UInt8]
    /// The picture's size in pixels.
    public var width: Int
    public var height: Int

    /// Creates an encoded photo; see the properties for the meaning of each argument.
    public init(bytes: [UInt8], width: Int, height: Int) {
        self.bytes = bytes
        self.width = width
        self.height = height
    }
}
