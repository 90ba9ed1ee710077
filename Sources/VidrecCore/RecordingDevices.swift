import VidrecMedia

/// What the ``Recorder`` needs from the layers below the core: the camera, the
/// microphone and the movie output (outputs beside the movie come with the request's
/// ``RecordingFeature``s), as AVFoundation's capture devices and
/// `AVCaptureMovieFileOutput` are to a capture session. The command line gives the
/// real ones (V4L2, ALSA, FFmpeg, or the built-in test sources); tests give scripted
/// ones.
public protocol RecordingDevices: AnyObject {
    /// Finds the camera asked for, without opening it.
    ///
    /// - Returns: its device path, or `nil` for a camera that has none (the built-in
    ///   test camera), which is never busy.
    func findCamera() throws -> String?

    /// Opens the camera found by ``findCamera()`` and chooses its mode.
    ///
    /// - Parameter video: the preset's video settings; adjusted to what the camera can
    ///   do (a slower frame rate, the fit of another aspect ratio).
    func openCamera(adjusting video: inout VideoEncoding) throws -> OpenedCamera

    /// Opens the microphone asked for, for `audio`; `nil` for none (`--mic none`, or a
    /// preset without audio).
    func openMicrophone(for audio: AudioEncoding?) throws -> (any AudioCaptureSource)?

    /// Creates the movie output, writing a new file at `path`.
    ///
    /// - Parameters:
    ///   - maxDuration: the longest the recording may last, and
    ///   - byteBudget: the most its file may take (its size limit, or the free space
    ///     above the floor), to size the room kept at the front of the file for its index.
    func makeMovieOutput(path: String, settings: MovieSettings, maxDuration: DurationLimit?,
                         byteBudget: Int64?) throws -> any CaptureOutput

    /// Creates the movie output of a continuous recording: the encoder cuts the movie as
    /// `plan` says, and each segment goes to the file `sink` opens for it.
    func makeSegmentedMovieOutput(settings: MovieSettings, plan: SegmentPlan, sink: any SegmentSink) throws -> any CaptureOutput

    /// Creates the movie output of a recording that waits for triggers: it keeps `pre`
    /// seconds in memory and writes one file for each event, each opened by `sink`.
    ///
    /// - Returns: the output, and what to call when something happens.
    func makeEventMovieOutput(settings: MovieSettings, pre: Double, post: Double, sink: any SegmentSink) throws
        -> (output: any CaptureOutput, trigger: @Sendable () -> Void)

    /// Creates the resampler that corrects the microphone's clock drift for audio in
    /// `format`; `nil` leaves drift uncorrected.
    func makeDriftCorrector(for format: AudioFormat) throws -> (any AudioStretching)?
}

extension RecordingDevices {
    public func makeSegmentedMovieOutput(settings: MovieSettings, plan: SegmentPlan, sink: any SegmentSink) throws -> any CaptureOutput {
        throw RecorderError.segmentsUnsupported
    }

    public func makeEventMovieOutput(settings: MovieSettings, pre: Double, post: Double, sink: any SegmentSink) throws
        -> (output: any CaptureOutput, trigger: @Sendable () -> Void) {
        throw RecorderError.segmentsUnsupported
    }
}

/// A camera opened by ``RecordingDevices/openCamera(adjusting:)``.
public struct OpenedCamera {
    /// The capture source.
    public var source: any VideoCaptureSource
    /// Its device path, for refusing a second recording from it (`nil`: none).
    public var path: String?
    /// The mode chosen, for the sidecar (`640x480 YUYV 25 fps, crop`); `nil` when there
    /// is no choice (the test camera).
    public var mode: String?

    /// Creates an opened camera; see the properties for the meaning of each argument.
    public init(source: any VideoCaptureSource, path: String?, mode: String?) {
        self.source = source
        self.path = path
        self.mode = mode
    }
}
