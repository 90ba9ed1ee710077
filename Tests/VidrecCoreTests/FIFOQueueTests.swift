import Testing
import VidrecMedia

/// The queue under every bounded queue between vidrec's stages.
@Suite struct FIFOQueueTests {
    final class Item {}

    @Test func whatIsTakenIsNoLongerHeldByTheQueue() {
        var queue = FIFOQueue<Item>()
        weak var first: Item?
        weak var last: Item?
        // Under the compaction threshold, as a recording without audio keeps it: only
        // video frames, taken one by one, never all at once.
        for index in 0..<100 {
            let item = Item()
            if index == 0 { first = item }
            if index == 99 { last = item }
            queue.append(item)
        }
        for _ in 0..<99 { _ = queue.removeFirst() }
        #expect(first == nil, "a taken element stays alive in the queue")
        #expect(last != nil)
        #expect(queue.removeFirst() != nil)
        #expect(queue.isEmpty)
        #expect(queue.removeFirst() == nil)
    }

    @Test func elementsComeOutInOrderAcrossCompactions() {
        var queue = FIFOQueue<Int>()
        var next = 0
        var taken: [Int] = []
        for round in 0..<50 {
            for _ in 0..<(round % 7 + 20) { queue.append(next); next += 1 }
            for _ in 0..<(round % 5 + 15) { if let value = queue.removeFirst() { taken.append(value) } }
        }
        while let value = queue.removeFirst() { taken.append(value) }
        #expect(taken == Array(0..<next))
    }
}
