/// Where a continuous recording is cut into files (`--segment`): on the movie's frame
/// grid, a first segment (shorter with `--segment-at-clock`, so that cuts fall on the
/// wall clock's round times), then one every ``length`` frames.
public struct SegmentPlan: Sendable, Equatable {
    /// Frames in the first segment.
    public let firstLength: Int64
    /// Frames in every later segment.
    public let length: Int64

    /// Creates a plan; both lengths at least one frame.
    public init(firstLength: Int64, length: Int64) {
        precondition(firstLength > 0 && length > 0)
        self.firstLength = firstLength
        self.length = length
    }

    /// The segment that frame slot `index` belongs to (0 for the first).
    public func segment(ofFrame index: Int64) -> Int {
        index < firstLength ? 0 : 1 + Int((index - firstLength) / length)
    }

    /// The first frame slot of segment `segment`.
    public func start(ofSegment segment: Int) -> Int64 {
        segment == 0 ? 0 : firstLength + Int64(segment - 1) * length
    }

    /// Where segment `segment` starts in audio samples at `sampleRate`, for a movie of
    /// `frameRate`: the same instant as its first frame, rounded to a sample.
    public func audioStart(ofSegment segment: Int, sampleRate: Int, frameRate: Rational) -> Int64 {
        (Rational(start(ofSegment: segment)) * frameRate.reciprocal * Rational(Int64(sampleRate))).rounded
    }
}
