import Foundation
import Synchronization
import VidrecMedia

/// The recording use case, from the request to the album: what `vidrec start` does,
/// with the command line left to parse and render.
///
/// It checks the disk and the camera, opens and starts the sources through
/// ``RecordingDevices``, creates the recording in the pending area (locked, with its
/// sidecar) and opens the movie output while their first frames queue, runs the
/// ``CaptureSession``, finalizes the file, writes how it ended into the sidecar and,
/// when asked and the recording ended well, saves it to the album.
public final class Recorder: Sendable {
    /// What the running recording shares with calls from other threads (stop, pause,
    /// switch, trigger), in one locked value.
    struct State {
        /// ``requestStop()`` was called (also before the session runs).
        var stopRequested = false
        /// The session, while it runs.
        var session: CaptureSession?
        /// What starts or extends an event, for a recording waiting for triggers.
        var trigger: (@Sendable () -> Void)?
        /// A segmented or event recording's files while it runs: the session's limit
        /// removes the oldest through them to stay above the free-space floor.
        var segments: SegmentedRecording?
        /// The recording's sidecar as it stands (a camera switch adds to it), and its
        /// movie's video settings (the size a new camera must fit).
        var running: (sidecar: RecordingSidecar, video: VideoEncoding)?
    }

    let store: RecordingStore
    let devices: any RecordingDevices & Sendable
    let outputs: any MovieOutputFactory & Sendable
    let saver: AlbumSaver
    let freeSpace: @Sendable (String) -> Int64?
    let state = Mutex(State())

    /// Creates a recorder.
    ///
    /// - Parameters:
    ///   - store: the pending area.
    ///   - devices: the camera and the microphone.
    ///   - outputs: makes the movie's output and the drift corrector.
    ///   - saver: the save step, with its finalizer.
    ///   - freeSpace: bytes free on the file system holding a path (`nil`: unknown).
    public init(store: RecordingStore, devices: any RecordingDevices & Sendable, outputs: any MovieOutputFactory & Sendable,
                saver: AlbumSaver,
                freeSpace: @escaping @Sendable (String) -> Int64? = { try? FreeSpace.available(at: $0) }) {
        self.store = store
        self.devices = devices
        self.outputs = outputs
        self.saver = saver
        self.freeSpace = freeSpace
    }

    /// Asks the recording to end, as `vidrec stop` or Ctrl-C do: the movie ends after the
    /// newest frame. Safe from any thread; asked before the session runs, it ends at once.
    public func requestStop() {
        state.withLock { state in
            state.stopRequested = true
            state.session?.requestStop()
        }
    }

    /// Pauses the running recording (``CaptureSession/pause()``), as `vidrec pause` asks.
    /// Safe from any thread.
    ///
    /// - Returns: whether it was recording (not already paused).
    /// - Throws: ``CaptureSessionError/notRunning``;
    ///   ``RecorderError/copiedStreamCannotPause(_:)`` for a camera's own H.264, stored
    ///   as it is.
    public func pause() throws -> Bool {
        guard let (session, running) = state.withLock({ state in state.session.map { ($0, state.running) } }),
              let (sidecar, video) = running else {
            throw CaptureSessionError.notRunning
        }
        if video.copied?.format == .h264 { throw RecorderError.copiedStreamCannotPause(sidecar.camera) }
        return try session.pause()
    }

    /// Resumes the paused recording (``CaptureSession/resume()``), as `vidrec resume`
    /// asks. Safe from any thread.
    ///
    /// - Returns: whether it was paused.
    /// - Throws: ``CaptureSessionError/notRunning``.
    public func resume() throws -> Bool {
        guard let session = state.withLock({ $0.session }) else { throw CaptureSessionError.notRunning }
        return try session.resume()
    }

    /// Something happened, for a recording that waits for triggers (`--pre`, `--post`,
    /// as `vidrec trigger` and SIGUSR1 say): its event starts, with what was kept from
    /// before, or goes on for another `post` seconds. Safe from any thread.
    ///
    /// - Returns: whether this recording waits for triggers.
    @discardableResult
    public func trigger() -> Bool {
        guard let trigger = state.withLock({ $0.trigger }) else { return false }
        trigger()
        return true
    }

    /// Goes on recording from the camera `devices` finds, as `vidrec switch` asks: its
    /// mode is chosen for the movie's size (never stretched by accident) and the session
    /// switches between two frames, with no gap in the movie and the audio untouched
    /// (``CaptureSession/switchCamera(to:)``). The sidecar lists each camera and from
    /// when it was used. Safe from any thread.
    ///
    /// - Returns: the camera now recorded, and from which media time.
    /// - Throws: ``CaptureSessionError/notRunning``; ``RecorderError/cameraBusy`` for a
    ///   camera that another recording holds, or this one already records from; the
    ///   device's errors (the old camera then records on).
    public func switchCamera(to devices: any RecordingDevices) throws -> CameraUse {
        guard let (session, running) = state.withLock({ state in state.session.map { ($0, state.running) } }),
              let (sidecar, settings) = running else {
            throw CaptureSessionError.notRunning
        }
        if !settings.isRecorded { throw RecorderError.switchWithoutCamera }
        if settings.copied != nil { throw RecorderError.copiedStreamCannotSwitch(sidecar.camera) }
        if let path = try devices.findCamera() {
            if path == sidecar.cameraPath { throw RecorderError.alreadyRecordingFrom(sidecar.camera) }
            if let holder = store.running().first(where: { $0.sidecar.cameraPath == path }) {
                throw RecorderError.cameraBusy(path: path, id: holder.id, pid: holder.sidecar.pid, since: holder.sidecar.startTime)
            }
        }
        var video = settings
        var opened: OpenedCamera? = try devices.openCamera(adjusting: &video)
        guard video.isRecorded else { throw RecorderError.switchWithoutCamera }
        var use = CameraUse(camera: opened!.source.displayName, path: opened!.path, mode: opened!.mode, from: 0)
        if video.frameRate != settings.frameRate {
            use.mode = (use.mode ?? "") + " (slower than the movie's \(settings.frameRate) fps: some frames stay on screen longer)"
        }
        let source = opened!.source
        opened = nil
        use.from = try session.switchCamera(to: source).doubleValue
        var updated = sidecar
        updated.camera = use.camera
        updated.cameraPath = use.path
        updated.cameraMode = use.mode
        updated.cameras = (updated.cameras ?? []) + [use]
        state.withLock { $0.running?.sidecar = updated }
        try? store.write(updated)
        return use
    }

    /// The tags written into the movie: what made it and when (``MovieMetadataKey``).
    static func movieMetadata(preset: String, camera: String, microphone: String?, title: String?,
                              startTime: Date) -> [String: String] {
        var tags = [MovieMetadataKey.preset: preset, MovieMetadataKey.camera: camera,
                    MovieMetadataKey.creationTime: DateText.iso8601(startTime, milliseconds: true)]
        tags[MovieMetadataKey.microphone] = microphone
        tags[MovieMetadataKey.title] = title
        return tags
    }

    /// Records as `request` asks, until a limit, ``requestStop()`` or a failure.
    ///
    /// - Parameter events: called on this thread as the recording goes (start, progress, end).
    /// - Returns: how it went. A recording that failed part-way (a vanished camera, a full
    ///   disk) is kept in the pending area, and the report says why.
    /// - Throws: ``RecorderError`` and device or output errors when nothing could be
    ///   recorded; store or album errors when the save step failed (the recording then
    ///   stays pending, whole).
    public func record(_ request: RecordingRequest, events: (RecorderEvent) -> Void = { _ in }) throws -> RecordingReport {
        let free = try checkBeforeStarting(request)
        var recording = try startSources(for: request)
        try createEntry(for: request, in: &recording)
        let (movie, stretcher, features) = try makeOutputs(for: request, free: free, in: &recording)
        defer { state.withLock { $0 = State(stopRequested: $0.stopRequested) } }
        events(.started(id: recording.entry.id, preset: recording.preset.name, settings: recording.preset.resolvedDescription,
                        sources: [recording.camera.name, recording.audio?.displayName].compactMap { $0 }, maxDuration: request.maxDuration))
        let outcome = try run(recording, movie: movie, features: features, stretcher: stretcher,
                              waitsForTriggers: request.mode.waitsForTriggers, events: events)
        var report = RecordingReport(id: recording.entry.id, outcome: outcome, audioSampleRate: recording.audio?.audioFormat.sampleRate,
                                     overruns: (recording.audio as? OverrunCounting)?.overruns)
        report.isAudioOnly = recording.preset.settings.isAudioOnly
        report.frameRate = recording.preset.settings.video.frameRate
        report.featureLines = request.features.flatMap { $0.recordingEnded(outcome) }
        state.withLock { $0.trigger = nil }
        if let segmented = recording.segmented {
            return finishSeries(segmented, of: recording, waitsForTriggers: request.mode.waitsForTriggers, report: report)
        }
        return try finishMovie(recording, save: request.save, report: report)
    }

    /// Writes how the recording went into `sidecar`: drops, repeats, audio repairs, the
    /// end reason (for a continuous recording, into its last segment's, for all of it).
    static func describe(_ outcome: RecordingOutcome, of report: RecordingReport, in sidecar: inout RecordingSidecar) {
        sidecar.droppedFrames = outcome.droppedFrames + outcome.queueDroppedFrames
        sidecar.cameraSkippedFrames = outcome.deviceSkippedFrames
        sidecar.undecodableFrames = outcome.undecodableFrames
        sidecar.surplusFrames = outcome.surplusFrames > 0 ? outcome.surplusFrames : nil
        sidecar.pausedFrames = outcome.pausedFrames > 0 ? outcome.pausedFrames : nil
        sidecar.repeatedFrames = outcome.repeatedFrames
        sidecar.switchFilledFrames = outcome.switchFilledFrames > 0 ? outcome.switchFilledFrames : nil
        let cameraWent = outcome.cameraGapFrames > 0 || outcome.cameraReturns > 0
        sidecar.cameraGapFrames = cameraWent ? outcome.cameraGapFrames : nil
        sidecar.cameraReturns = cameraWent ? outcome.cameraReturns : nil
        sidecar.cameraGaps = outcome.cameraGaps.isEmpty ? nil : outcome.cameraGaps
        sidecar.microphoneGaps = outcome.microphoneGaps.isEmpty ? nil : outcome.microphoneGaps
        sidecar.insertedSilence = report.audioSampleRate.map { Double(outcome.insertedSilence) / Double($0) }
        sidecar.closingSilence = report.audioSampleRate.map { Double(outcome.closingSilence) / Double($0) }
        sidecar.droppedAudio = report.audioSampleRate.map { Double(outcome.droppedAudio) / Double($0) }
        sidecar.soundStartMoved = outcome.movedSoundStart == 0 ? nil : report.audioSampleRate.map { Double(outcome.movedSoundStart) / Double($0) }
        sidecar.driftCorrection = report.audioSampleRate.map { Double(outcome.stretchedAudio) / Double($0) }
        sidecar.overruns = report.overruns
        // A segment starts later than the recording's time 0: only a single movie has it.
        sidecar.clockOrigin = sidecar.segment == nil ? outcome.clockOrigin.map { Double($0) / Double(Duration.nanosecondsPerSecond) } : nil
        sidecar.endReason = outcome.reason.message
        if report.isAudioOnly {
            // Frames of a sound recording are only its time, which `duration` says.
            sidecar.videoFrames = nil
            (sidecar.droppedFrames, sidecar.cameraSkippedFrames, sidecar.undecodableFrames) = (nil, nil, nil)
            (sidecar.surplusFrames, sidecar.pausedFrames, sidecar.repeatedFrames) = (nil, nil, nil)
        }
    }
}
