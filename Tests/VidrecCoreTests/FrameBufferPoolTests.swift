import Testing
import VidrecMedia

/// A camera's frame blocks are used again once released, and a drained backlog goes
/// back to the heap beyond the blocks kept.
@Suite struct FrameBufferPoolTests {
    @Test func aReleasedBlockIsUsedForTheNextFrameWithTheNewContents() {
        let pool = FrameBufferPool(blockSize: 64, keep: 2)
        let first = [UInt8](repeating: 1, count: 64), second = [UInt8](0..<48)
        var buffer: FrameBuffer? = pool.buffer(copying: first, count: 64)
        let address = buffer!.bytes
        buffer = nil
        #expect(pool.freeBlocks == 1)
        let next = pool.buffer(copying: second, count: 48)
        #expect(next.bytes == address && next.count == 48 && pool.freeBlocks == 0)
        #expect(Array(UnsafeRawBufferPointer(start: next.bytes, count: next.count)) == second)
    }

    @Test func blocksBeyondTheKeptOnesGoBackToTheHeap() {
        let pool = FrameBufferPool(blockSize: 1 << 20, keep: 3)
        var backlog: [FrameBuffer] = (0..<10).map { _ in pool.buffer(count: 1 << 20) }
        #expect(Set(backlog.map(\.bytes)).count == 10)
        backlog.removeAll()
        #expect(pool.freeBlocks == 3)
        // A frame still held keeps its block out of the pool until it is let go.
        let held = pool.buffer(count: 10)
        #expect(pool.freeBlocks == 2 && held.count == 10)
    }
}
