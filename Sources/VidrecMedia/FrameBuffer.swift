import Glibc

/// A heap block that holds one captured frame or audio period.
///
/// The capture thread fills it once and hands it on; after that it is only read.
/// That hand-over-then-read-only discipline is why `@unchecked Sendable` is safe here.
public final class FrameBuffer: @unchecked Sendable {
    /// The start of the block.
    public let bytes: UnsafeMutableRawPointer
    /// Its size in bytes.
    public let count: Int

    /// Allocates `count` bytes (at least one), 64-byte aligned for SIMD readers.
    public init(count: Int) {
        self.count = count
        self.bytes = UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1), alignment: 64)
    }

    /// Copies `count` bytes from `source` into a new buffer.
    public convenience init(copying source: UnsafeRawPointer, count: Int) {
        self.init(count: count)
        bytes.copyMemory(from: source, byteCount: count)
    }

    deinit { bytes.deallocate() }
}
