/// How long a live stream waits before each attempt to reach its server again: half a
/// second, doubling up to fifteen seconds, and from the start again once connected. A
/// server restarting is found again within a second; one that is down for an hour costs
/// an attempt every fifteen seconds.
struct ReconnectBackoff {
    /// The first wait, in seconds.
    static let initial = 0.5
    /// The longest wait, in seconds.
    static let maximum = 15.0

    private var current = ReconnectBackoff.initial

    /// The wait before the next attempt; each call doubles the one after, up to
    /// ``maximum``.
    mutating func next() -> Double {
        defer { current = min(current * 2, ReconnectBackoff.maximum) }
        return current
    }

    /// Starts again from ``initial``, after a connection was made.
    mutating func reset() { current = ReconnectBackoff.initial }
}
