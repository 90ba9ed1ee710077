import VidrecMedia

/// Makes the movie's output for the ``Recorder``, as `AVCaptureMovieFileOutput` is to a
/// capture session: one file, a series of segments, or one file per event, and the
/// resampler that corrects the microphone's drift for it. The command line gives the
/// FFmpeg ones; tests give scripted ones that write what they are given.
public protocol MovieOutputFactory: AnyObject {
    /// Creates the movie output, writing a new file at `path`.
    ///
    /// - Parameters:
    ///   - maxDuration: the longest the recording may last, and
    ///   - byteBudget: the most its file may take (its size limit, or the free space
    ///     above the floor), to size the room kept at the front of the file for its index.
    ///   - copying: the camera's stream, when the movie stores it as it is.
    func makeMovieOutput(path: String, settings: MovieSettings, maxDuration: DurationLimit?,
                         byteBudget: Int64?, copying: (any CompressedVideoSource)?) throws -> any CaptureOutput

    /// Creates the movie output of a continuous recording: the encoder cuts the movie as
    /// `plan` says, and each segment goes to the file `sink` opens for it.
    func makeSegmentedMovieOutput(settings: MovieSettings, plan: SegmentPlan, sink: any SegmentSink,
                                  copying: (any CompressedVideoSource)?) throws -> any CaptureOutput

    /// Creates the movie output of a continuous recording that also writes one file for
    /// each event beside its segments, from the same encode: the segments as
    /// ``makeSegmentedMovieOutput(settings:plan:sink:copying:)`` makes them, and the
    /// events as ``makeEventMovieOutput(settings:pre:post:sink:copying:)`` does, each
    /// opened by `eventSink`.
    ///
    /// - Returns: the output, and what to call when something happens.
    func makeSegmentedEventMovieOutput(settings: MovieSettings, plan: SegmentPlan, sink: any SegmentSink,
                                       events: EventSettings, eventSink: any SegmentSink,
                                       copying: (any CompressedVideoSource)?) throws
        -> (output: any CaptureOutput, trigger: @Sendable () -> Void)

    /// Creates the movie output of a recording that waits for triggers: it keeps `pre`
    /// seconds in memory and writes one file for each event, each opened by `sink`.
    ///
    /// - Returns: the output, and what to call when something happens.
    func makeEventMovieOutput(settings: MovieSettings, pre: Double, post: Double, sink: any SegmentSink,
                              copying: (any CompressedVideoSource)?) throws
        -> (output: any CaptureOutput, trigger: @Sendable () -> Void)

    /// Creates the resampler that corrects the microphone's clock drift for audio in
    /// `format`; `nil` leaves drift uncorrected.
    func makeDriftCorrector(for format: AudioFormat) throws -> (any AudioStretching)?
}

extension MovieOutputFactory {
    public func makeSegmentedMovieOutput(settings: MovieSettings, plan: SegmentPlan, sink: any SegmentSink,
                                         copying: (any CompressedVideoSource)?) throws -> any CaptureOutput {
        throw RecorderError.segmentsUnsupported
    }

    public func makeEventMovieOutput(settings: MovieSettings, pre: Double, post: Double, sink: any SegmentSink,
                                     copying: (any CompressedVideoSource)?) throws
        -> (output: any CaptureOutput, trigger: @Sendable () -> Void) {
        throw RecorderError.segmentsUnsupported
    }

    public func makeSegmentedEventMovieOutput(settings: MovieSettings, plan: SegmentPlan, sink: any SegmentSink,
                                              events: EventSettings, eventSink: any SegmentSink,
                                              copying: (any CompressedVideoSource)?) throws
        -> (output: any CaptureOutput, trigger: @Sendable () -> Void) {
        throw RecorderError.segmentsUnsupported
    }
}
