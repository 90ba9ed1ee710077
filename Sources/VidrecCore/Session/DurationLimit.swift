import VidrecMedia

/// The maximum-duration limiter's arithmetic (`--max DURATION`).
///
/// The limit is exact media time, counted in each stream's own units: a movie at
/// `fps` frames per second holds exactly `round(max × fps)` frames, and its audio
/// `round(max × rate)` samples. No wall clock is involved.
public struct DurationLimit: Sendable, Equatable, CustomStringConvertible {
    /// The limit in seconds, exactly as given (`2.5` is 5/2).
    public let seconds: Rational

    /// Creates a limit. - Precondition: `seconds > 0`.
    public init(seconds: Rational) {
        precondition(seconds > Rational(0), "a duration limit must be positive")
        self.seconds = seconds
    }

    /// Parses `--max`: a positive duration (``Rational/init(duration:)``: `30`, `2.5`,
    /// `90s`, `5m`, `1h`) up to 24 hours.
    public init?(parsing text: String) {
        guard let value = Rational(duration: text), value > Rational(0), value <= Rational(86_400) else { return nil }
        self.init(seconds: value)
    }

    /// How many video frames fit: `round(seconds × frameRate)`, at least one.
    public func videoFrames(at frameRate: Rational) -> Int64 {
        max(1, (seconds * frameRate).rounded)
    }

    /// How many audio frames (samples per channel) match the video's duration, so both
    /// streams end together: `round(videoFrames / frameRate × sampleRate)`.
    public func audioFrames(at sampleRate: Int, videoFrameRate: Rational) -> Int64 {
        (Rational(videoFrames(at: videoFrameRate)) * videoFrameRate.reciprocal * Rational(Int64(sampleRate))).rounded
    }

    /// `30 s`, `2.5 s`.
    public var description: String { "\(seconds) s" }
}
