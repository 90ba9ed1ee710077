/// The storage of a first-in, first-out queue: an array read from a moving head and
/// compacted once the head has passed half of it, so that taking the oldest element
/// costs O(1) amortized. Not thread-safe: ``CaptureQueue`` and ``OutputConnection``
/// guard theirs with their own lock.
struct FIFOQueue<Element> {
    private var elements: [Element] = []
    private var head = 0

    /// Whether nothing is waiting.
    var isEmpty: Bool { head == elements.count }

    /// Adds `element` after the others.
    mutating func append(_ element: Element) {
        elements.append(element)
    }

    /// Takes the oldest element; `nil` when empty.
    mutating func removeFirst() -> Element? {
        guard head < elements.count else { return nil }
        let element = elements[head]
        head += 1
        if head > 256, head * 2 > elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Drops everything waiting.
    mutating func removeAll() {
        elements.removeAll()
        head = 0
    }
}
