import Glibc

/// A heap block that holds one captured frame or audio period.
///
/// The capture thread fills it once and hands it on; after that it is only read.
/// That hand-over-then-read-only discipline is why `@unchecked Sendable` is safe here.
/// A block from a ``FrameBufferPool`` goes back to its pool when the buffer is gone.
public final class FrameBuffer: @unchecked Sendable {
    /// The start of the block.
    public let bytes: UnsafeMutableRawPointer
    /// Its size in bytes.
    public let count: Int
    /// Where the block goes back to, if it came from a pool.
    private let pool: FrameBufferPool?

    /// Allocates `count` bytes (at least one), 64-byte aligned for SIMD readers.
    public init(count: Int) {
        self.count = count
        self.bytes = FrameBuffer.allocateBlock(count)
        pool = nil
    }

    /// Copies `count` bytes from `source` into a new buffer.
    public convenience init(copying source: UnsafeRawPointer, count: Int) {
        self.init(count: count)
        bytes.copyMemory(from: source, byteCount: count)
    }

    /// Wraps `block`, which goes back to `pool` when this buffer is gone.
    init(pooled block: UnsafeMutableRawPointer, count: Int, pool: FrameBufferPool) {
        bytes = block
        self.count = count
        self.pool = pool
    }

    /// A block of `count` bytes (at least one), 64-byte aligned.
    static func allocateBlock(_ count: Int) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer.allocate(byteCount: Swift.max(count, 1), alignment: 64)
    }

    deinit {
        if let pool { pool.recycle(bytes) } else { bytes.deallocate() }
    }
}
