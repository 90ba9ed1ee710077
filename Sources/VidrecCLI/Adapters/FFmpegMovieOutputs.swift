import VidrecCore
import VidrecFFmpeg
import VidrecMedia
import VidrecSystem

/// The movie's outputs on this machine: the FFmpeg encoder and a movie file, a series of
/// segment files, or one file per event, each with the features' packet outputs beside
/// it (`--live`), and the FFmpeg resampler that corrects the microphone's drift.
final class FFmpegMovieOutputs: MovieOutputFactory, Sendable {
    private let sideOutputs: [SideOutput]
    private let report: @Sendable (String) -> Void

    /// The longest to wait for a copied camera's first keyframe.
    static let keyframeTimeout = 2 * CaptureTiming.stallTimeout.wholeSeconds

    /// - Parameters:
    ///   - sideOutputs: the outputs the features put beside the movie file.
    ///   - report: where a late first keyframe is told.
    init(sideOutputs: [SideOutput] = [], report: @escaping @Sendable (String) -> Void) {
        self.sideOutputs = sideOutputs
        self.report = report
    }

    /// `settings` with a copied stream's header, waiting for the camera's first keyframe
    /// (the camera has started), and how to ask the camera for a keyframe.
    private func withCopiedStream(_ settings: MovieSettings, from camera: (any CompressedVideoSource)?) throws
        -> (settings: MovieSettings, requestKeyframe: () -> Void) {
        guard var copied = settings.video.copied, let camera else { return (settings, {}) }
        let asked = MonotonicClock.now()
        copied.header = try camera.streamHeader(timeout: Double(FFmpegMovieOutputs.keyframeTimeout))
        let waited = Double(MonotonicClock.now() - asked) / 1e9
        if waited >= 0.5 {
            report("the camera's first keyframe came after \((waited * 10).rounded() / 10) s; the recording starts there")
        }
        var settings = settings
        settings.video.copied = copied
        return (settings, { camera.requestKeyframe() })
    }

    func makeMovieOutput(path: String, settings: MovieSettings, maxDuration: DurationLimit?,
                         byteBudget: Int64?, copying camera: (any CompressedVideoSource)?) throws -> any CaptureOutput {
        let (settings, requestKeyframe) = try withCopiedStream(settings, from: camera)
        return try MovieEncoder.recordingFile(path: path, settings: settings,
                                              indexSeconds: maxDuration?.seconds.doubleValue ?? MovieFileOutput.defaultIndexSeconds,
                                              maxBytes: byteBudget, sideOutputs: sideOutputs, requestKeyframe: requestKeyframe)
    }

    func makeSegmentedMovieOutput(settings: MovieSettings, plan: SegmentPlan, sink: any SegmentSink,
                                  copying camera: (any CompressedVideoSource)?) throws -> any CaptureOutput {
        let (settings, requestKeyframe) = try withCopiedStream(settings, from: camera)
        return try MovieEncoder.segmentedRecording(settings: settings, plan: plan, sink: sink, sideOutputs: sideOutputs,
                                                   requestKeyframe: requestKeyframe)
    }

    func makeSegmentedEventMovieOutput(settings: MovieSettings, plan: SegmentPlan, sink: any SegmentSink,
                                       events: EventSettings, eventSink: any SegmentSink,
                                       copying camera: (any CompressedVideoSource)?) throws
        -> (output: any CaptureOutput, trigger: @Sendable () -> Void) {
        let (settings, requestKeyframe) = try withCopiedStream(settings, from: camera)
        let encoder = try MovieEncoder.segmentedRecording(settings: settings, plan: plan, sink: sink, sideOutputs: sideOutputs,
                                                          requestKeyframe: requestKeyframe)
        let files = encoder.writeEvents(pre: events.pre, post: events.post, container: settings.container, sink: eventSink)
        return (encoder, { files.trigger() })
    }

    func makeEventMovieOutput(settings: MovieSettings, pre: Double, post: Double, sink: any SegmentSink,
                              copying camera: (any CompressedVideoSource)?) throws
        -> (output: any CaptureOutput, trigger: @Sendable () -> Void) {
        let (settings, requestKeyframe) = try withCopiedStream(settings, from: camera)
        let (encoder, events) = try MovieEncoder.eventRecording(settings: settings, pre: pre, post: post, sink: sink,
                                                                sideOutputs: sideOutputs, requestKeyframe: requestKeyframe)
        return (encoder, { events.trigger() })
    }

    func makeDriftCorrector(for format: AudioFormat) throws -> (any AudioStretching)? {
        try DriftResampler(format: format)
    }
}
