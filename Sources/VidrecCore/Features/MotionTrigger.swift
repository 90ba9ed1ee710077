import VidrecMedia

/// `--trigger motion[=N]`: a recording that waits for triggers (`--pre`, `--post`) is also
/// triggered by motion in the picture. A motion detector (the FFmpeg layer's
/// `MotionDetector`) is an output beside the movie, on its own thread behind a queue of
/// two frames that drops, so it never costs the movie a frame; each frame with enough
/// motion triggers the recording, as `vidrec trigger` does.
public final class MotionTrigger: RecordingFeature {
    /// Makes a detector: an output that calls its argument for each frame with at least
    /// ``threshold`` of motion, with the amount.
    public typealias MakeDetector = @Sendable (_ threshold: Double, _ onMotion: @escaping @Sendable (Double) -> Void) -> any CaptureOutput

    /// The least motion that triggers: a mean luma difference, 0 to 255, between small
    /// copies of successive frames.
    public let threshold: Double
    private let makeDetector: MakeDetector

    /// Creates the feature; `makeDetector` makes its detector when it is attached.
    public init(threshold: Double, makeDetector: @escaping MakeDetector) {
        self.threshold = threshold
        self.makeDetector = makeDetector
    }

    public func attach(to recording: FeatureContext) throws -> [OutputConnection] {
        guard recording.hasPicture else { throw RecorderError.needsPicture("--trigger motion") }
        let detector = makeDetector(threshold) { _ in _ = recording.trigger() }
        return [OutputConnection(output: detector, policy: OutputPolicy(videoCapacity: 2, isEssential: false), threadName: "vidrec.motion")]
    }

    public func recordingEnded(_ outcome: RecordingOutcome) -> [String] { [] }
}
