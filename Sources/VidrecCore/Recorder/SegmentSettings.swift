import Foundation
import VidrecMedia

/// `--segment`: the length of each file of a continuous recording, and where the cuts
/// fall.
public struct SegmentSettings: Sendable, Equatable {
    /// Each segment's length, in seconds (the last one may be shorter).
    public var seconds: Rational
    /// `--segment-at-clock`: cut when the wall clock is at a multiple of the length
    /// (a 5-minute segment starts at :00, :05, …), the first segment shorter to get there.
    public var atClock: Bool

    /// Creates segment settings; see the properties for the meaning of each argument.
    public init(seconds: Rational, atClock: Bool = false) {
        self.seconds = seconds
        self.atClock = atClock
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
