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

    /// The first boundary after frame slot `index`: where the segment after `index`'s
    /// would start.
    public func boundary(after index: Int64) -> Int64 {
        start(ofSegment: segment(ofFrame: index) + 1)
    }

    /// Where segment `segment` starts in audio samples at `sampleRate`, for a movie of
    /// `frameRate`: the same instant as its first frame, rounded to a sample.
    public func audioStart(ofSegment segment: Int, sampleRate: Int, frameRate: Rational) -> Int64 {
        SegmentPlan.audioSample(atSlot: start(ofSegment: segment), sampleRate: sampleRate, frameRate: frameRate)
    }

    /// The audio sample at `sampleRate` of the instant frame slot `slot` starts, in a
    /// movie of `frameRate`, rounded to a sample.
    public static func audioSample(atSlot slot: Int64, sampleRate: Int, frameRate: Rational) -> Int64 {
        (Rational(slot) * frameRate.reciprocal * Rational(Int64(sampleRate))).rounded
    }
}
