import Foundation
import VidrecMedia

/// `--segment`: a continuous recording cut into files of a given length, each its own
/// pending recording (committed to the album as it closes, with `--save`).
public struct SegmentRequest: Sendable {
    /// Each segment's length, in seconds (the last one may be shorter).
    public var seconds: Rational
    /// `--segment-at-clock`: cut when the wall clock is at a multiple of the length
    /// (a 5-minute segment starts at :00, :05, …), the first segment shorter to get there.
    public var atClock: Bool
    /// The name to save each segment under, from its start time (`--name`), if any.
    public var name: (@Sendable (Date) -> String)?
    /// Hears about each segment as it closes (on the file's thread).
    public var closed: @Sendable (SegmentReport) -> Void
    /// Hears of each older segment removed to stay above the `--min-free` floor.
    public var reclaimed: @Sendable (String) -> Void
    /// `--pre`/`--post`: instead of cutting at a fixed length, write nothing until a
    /// trigger, then one file for each event: the `pre` seconds kept from before it
    /// and up to `post` seconds after the last trigger (``Recorder/trigger()``).
    public var events: (pre: Double, post: Double)?

    /// Creates a segment request; see the properties for the meaning of each argument.
    public init(seconds: Rational, atClock: Bool = false, name: (@Sendable (Date) -> String)? = nil,
                closed: @escaping @Sendable (SegmentReport) -> Void = { _ in },
                reclaimed: @escaping @Sendable (String) -> Void = { _ in }) {
        self.reclaimed = reclaimed
        self.seconds = seconds
        self.atClock = atClock
        self.name = name
        self.closed = closed
    }

    /// The plan for a movie of `frameRate` starting at `start`: segments of
    /// `round(seconds × frameRate)` frames, the first shortened to the next multiple of
    /// the length on the wall clock with ``atClock``.
    public func plan(frameRate: Rational, start: Date) -> SegmentPlan {
        let length = max(1, (seconds * frameRate).rounded)
        guard atClock else { return SegmentPlan(firstLength: length, length: length) }
        let period = seconds.doubleValue
        let into = start.timeIntervalSince1970.truncatingRemainder(dividingBy: period)
        let first = (Rational(parsing: String(format: "%.6f", period - into)) ?? seconds) * frameRate
        return SegmentPlan(firstLength: max(1, min(length, first.rounded)), length: length)
    }
}
