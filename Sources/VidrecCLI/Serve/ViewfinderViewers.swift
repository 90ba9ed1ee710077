import Synchronization

/// The viewfinder streams open at once, bounded: each holds a connection and its thread
/// for as long as it is watched, and one browser opening many must not use up the
/// server. Every stream shares the one picture feed.
final class ViewfinderViewers: Sendable {
    /// The most streams open at once.
    let maximum: Int
    private let count = Mutex(0)

    init(maximum: Int) {
        precondition(maximum > 0)
        self.maximum = maximum
    }

    /// Counts a new stream in, unless ``maximum`` are open.
    func admit() -> Bool {
        count.withLock { count in
            guard count < maximum else { return false }
            count += 1
            return true
        }
    }

    /// Counts a stream out.
    func leave() {
        count.withLock { $0 -= 1 }
    }
}
