import Synchronization

/// Frame-sized blocks used again and again: a camera copies each frame into one, and the
/// block comes back here when the last holder of its ``FrameBuffer`` lets go (after
/// the encoder has converted the frame).
///
/// A heap block per frame (600 KB at 640x480, 4 MB at 1080p) made the C heap of each
/// capture thread grow to the longest backlog and keep that memory, partly
/// fragmented, for the rest of the recording, and fresh pages had to be faulted in and
/// zeroed. Blocks beyond ``keep`` free ones are given back to the heap, so a backlog
/// that has drained does not stay in memory.
public final class FrameBufferPool: Sendable {
    /// Each block's size in bytes.
    public let blockSize: Int
    /// How many free blocks are kept for reuse.
    public let keep: Int
    private let free: Mutex<[BlockAddress]>

    /// A block's address, handed between threads under the pool's lock.
    struct BlockAddress: @unchecked Sendable {
        let pointer: UnsafeMutableRawPointer
    }

    /// A pool of blocks of `blockSize` bytes, keeping at most `keep` free ones.
    public init(blockSize: Int, keep: Int) {
        precondition(blockSize > 0 && keep >= 0)
        self.blockSize = blockSize
        self.keep = keep
        free = Mutex([])
    }

    /// A buffer of `count` bytes (at most ``blockSize``) whose contents are left over
    /// from an earlier frame: the caller writes every byte before handing it on.
    public func buffer(count: Int) -> FrameBuffer {
        precondition(count <= blockSize, "a frame of \(count) bytes in a pool of \(blockSize)-byte blocks")
        let block = free.withLock { $0.popLast() }?.pointer ?? FrameBuffer.allocateBlock(blockSize)
        return FrameBuffer(pooled: block, count: count, pool: self)
    }

    /// A buffer holding a copy of `count` bytes (at most ``blockSize``) from `source`.
    public func buffer(copying source: UnsafeRawPointer, count: Int) -> FrameBuffer {
        let buffer = buffer(count: count)
        buffer.bytes.copyMemory(from: source, byteCount: count)
        return buffer
    }

    /// Free blocks held now.
    public var freeBlocks: Int { free.withLock { $0.count } }

    /// Takes `block` back: kept for reuse, or given back to the heap beyond ``keep``.
    func recycle(_ block: UnsafeMutableRawPointer) {
        let kept = free.withLock { list in
            guard list.count < keep else { return false }
            list.append(BlockAddress(pointer: block))
            return true
        }
        if !kept { block.deallocate() }
    }

    deinit {
        for block in free.withLock({ $0 }) { block.pointer.deallocate() }
    }
}
