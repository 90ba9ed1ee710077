/// The storage of a first-in, first-out queue: an array read from a moving head and
/// compacted once the head has passed half of it, so that taking the oldest element
/// costs O(1) amortized. Not thread-safe: ``CaptureQueue``, ``OutputConnection`` and
/// the packet connections guard theirs with their own lock.
///
/// A taken element's slot is cleared at once, so the queue never keeps what it handed
/// out alive: the slots behind the head are empty until the next compaction. (Before,
/// they kept their elements: up to 256 taken video frames, over a gigabyte at 1080p
/// for a recording without audio.)
public struct FIFOQueue<Element> {
    private var elements: [Element?] = []
    private var head = 0

    /// Creates an empty queue.
    public init() {}

    /// Whether nothing is waiting.
    public var isEmpty: Bool { head == elements.count }

    /// Adds `element` after the others.
    public mutating func append(_ element: Element) {
        elements.append(element)
    }

    /// Takes the oldest element; `nil` when empty.
    public mutating func removeFirst() -> Element? {
        guard head < elements.count else { return nil }
        let element = elements[head].take()
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 256, head * 2 > elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Drops everything waiting.
    public mutating func removeAll() {
        elements.removeAll()
        head = 0
    }
}
