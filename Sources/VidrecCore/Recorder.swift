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
    private let store: RecordingStore
    private let devices: any RecordingDevices & Sendable
    private let saver: AlbumSaver
    private let freeSpace: @Sendable (String) -> Int64?
    private let session = Mutex<CaptureSession?>(nil)
    private let eventTrigger = Mutex<(@Sendable () -> Void)?>(nil)
    /// A continuous recording's segments while it runs: the session's limit removes the
    /// oldest through them to stay above the free-space floor.
    private let segments = Mutex<SegmentedRecording?>(nil)
    /// The running recording's sidecar as it stands (a camera switch adds to it), and
    /// its movie's video settings (the size a new camera must fit).
    private let running = Mutex<(sidecar: RecordingSidecar, video: VideoEncoding)?>(nil)
    private let stopRequested = Atomic<Bool>(false)

    /// Creates a recorder.
    ///
    /// - Parameters:
    ///   - store: the pending area.
    ///   - devices: the camera, microphone and movie output.
    ///   - saver: the save step, with its finalizer.
    ///   - freeSpace: bytes free on the file system holding a path (`nil`: unknown).
    public init(store: RecordingStore, devices: any RecordingDevices & Sendable, saver: AlbumSaver,
                freeSpace: @escaping @Sendable (String) -> Int64? = { try? FreeSpace.available(at: $0) }) {
        self.store = store
        self.devices = devices
        self.saver = saver
        self.freeSpace = freeSpace
    }

    /// Asks the recording to end, as `vidrec stop` or Ctrl-C do: the movie ends after the
    /// newest frame. Safe from any thread; asked before the session runs, it ends at once.
    public func requestStop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
        session.withLock { $0?.requestStop() }
    }

    /// Pauses the running recording (``CaptureSession/pause()``), as `vidrec pause` asks.
    /// Safe from any thread.
    ///
    /// - Returns: whether it was recording (not already paused).
    /// - Throws: ``CaptureSessionError/notRunning``;
    ///   ``RecorderError/copiedStreamCannotPause(_:)`` for a camera's own H.264, stored
    ///   as it is.
    public func pause() throws -> Bool {
        guard let session = session.withLock({ $0 }), let (sidecar, video) = running.withLock({ $0 }) else {
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
        guard let session = session.withLock({ $0 }) else { throw CaptureSessionError.notRunning }
        return try session.resume()
    }

    /// Something happened, for a recording that waits for triggers (`--pre`, `--post`,
    /// as `vidrec trigger` and SIGUSR1 say): its event starts, with what was kept from
    /// before, or goes on for another `post` seconds. Safe from any thread.
    ///
    /// - Returns: whether this recording waits for triggers.
    @discardableResult
    public func trigger() -> Bool {
        guard let trigger = eventTrigger.withLock({ $0 }) else { return false }
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
        guard let (sidecar, settings) = running.withLock({ $0 }), let session = session.withLock({ $0 }) else {
            throw CaptureSessionError.notRunning
        }
        if settings.copied != nil { throw RecorderError.copiedStreamCannotSwitch(sidecar.camera) }
        if let path = try devices.findCamera() {
            if path == sidecar.cameraPath { throw RecorderError.alreadyRecordingFrom(sidecar.camera) }
            if let holder = store.running().first(where: { $0.sidecar.cameraPath == path }) {
                throw RecorderError.cameraBusy(path: path, id: holder.id, pid: holder.sidecar.pid, since: holder.sidecar.startTime)
            }
        }
        var video = settings
        var opened: OpenedCamera? = try devices.openCamera(adjusting: &video)
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
        running.withLock { $0?.sidecar = updated }
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
        var preset = request.preset
        if let save = request.save { try save.album.prepare() }
        let free = freeSpace(store.directory)
        if let floor = request.minFreeSpace, let free, free < floor {
            throw RecorderError.lowDiskSpace(directory: store.directory, free: free, floor: floor)
        }
        if let path = try devices.findCamera(), let running = store.running().first(where: { $0.sidecar.cameraPath == path }) {
            throw RecorderError.cameraBusy(path: path, id: running.id, pid: running.sidecar.pid, since: running.sidecar.startTime)
        }
        let audio = try devices.openMicrophone(for: preset.settings.audio)
        // Only the session holds the camera once it runs, so that a camera switched
        // away from is released at once.
        var opened: OpenedCamera? = try devices.openCamera(adjusting: &preset.settings.video)
        let camera = (name: opened!.source.displayName, path: opened!.path, mode: opened!.mode, format: opened!.source.videoFormat)
        if audio == nil { preset.settings.audio = nil }

        var limits = RecordingLimits(duration: request.duration, maxFileSize: request.maxFileSize,
                                     minFreeSpace: request.minFreeSpace,
                                     nominalBytesPerSecond: preset.settings.nominalBytesPerSecond)
        // A continuous recording goes on at the floor by removing its oldest segments
        // (made below, once the recording's entry exists).
        if request.segment != nil {
            limits.reclaim = { [weak self] in self?.segments.withLock { $0 }?.reclaimOldest() ?? false }
        }
        let pending = store.directory
        let freeSpace = freeSpace
        let session = CaptureSession(video: opened!.source, audio: audio, frameRate: preset.settings.video.frameRate,
                                     limits: limits, freeSpace: { freeSpace(pending) },
                                     queue: CaptureQueue.sized(for: camera.format))
        opened = nil
        // The camera and the microphone start now, and the pending entry, the encoder
        // and the file are made while their first frames arrive, as ffmpeg's v4l2 input
        // does: the recording begins a few hundred milliseconds sooner on a slow machine.
        // A source that cannot start leaves nothing behind.
        try session.startSources()

        // The lock is held in one place only: here, or by the segments once a continuous
        // recording hands its first segment over (which unlocks it when it closes).
        var lock: RecordingLock?
        let entry: RecordingStore.Entry
        do {
            let (made, held) = try store.create(at: request.startTime) { id in
                var sidecar = RecordingSidecar(
                    id: id, preset: preset.name, presetFile: preset.file, camera: camera.name,
                    microphone: audio?.displayName, container: preset.settings.container, startTime: request.startTime,
                    pid: request.pid, maxDuration: request.duration?.seconds.doubleValue)
                sidecar.cameraPath = camera.path
                sidecar.cameraMode = camera.mode
                sidecar.cameras = [CameraUse(camera: camera.name, path: camera.path, mode: camera.mode, from: 0)]
                sidecar.frameRate = "\(preset.settings.video.frameRate)"
                sidecar.saveName = request.saveName
                sidecar.controlSocket = request.controlSocket(id: id)
                if request.segment != nil { sidecar.segment = 0 }
                return sidecar
            }
            entry = made
            lock = held
        } catch {
            session.stopSources()
            throw error
        }
        preset.settings.metadata = Recorder.movieMetadata(preset: preset.name, camera: camera.name,
                                                          microphone: audio?.displayName, title: request.saveName,
                                                          startTime: request.startTime)
        // A continuous recording: a pending recording for each segment.
        let segmented = request.segment.map { segment in
            SegmentedRecording(store: store, saver: saver, save: request.save, request: segment, first: entry,
                               lock: segment.events == nil ? lock : nil,
                               startTime: request.startTime,
                               metadata: { [preset] date, name in
                                   Recorder.movieMetadata(preset: preset.name, camera: camera.name, microphone: audio?.displayName,
                                                          title: name, startTime: date)
                               },
                               sidecar: { [self] in running.withLock { $0?.sidecar } ?? entry.sidecar })
        }
        segments.withLock { $0 = segmented }
        defer { segments.withLock { $0 = nil } }
        // A continuous recording's first segment takes the recording's lock over; a
        // recording that waits for triggers keeps it (and its pending entry, without a
        // file, which status and stop find) until it ends.
        if segmented != nil, request.segment?.events == nil { lock = nil }

        let output: any CaptureOutput
        let stretcher: (any AudioStretching)?
        let featureOutputs: [OutputConnection]
        do {
            // The file may take no more than --max-size, nor the free space above the floor.
            let aboveFloor = free.map { $0 - (request.minFreeSpace ?? 0) }
            let budget = [request.maxFileSize, aboveFloor].compactMap { $0 }.min()
            if let segmented, let segment = request.segment, let events = segment.events {
                let made = try devices.makeEventMovieOutput(settings: preset.settings, pre: events.pre, post: events.post, sink: segmented)
                output = made.output
                eventTrigger.withLock { $0 = made.trigger }
            } else if let segmented, let segment = request.segment {
                output = try devices.makeSegmentedMovieOutput(
                    settings: preset.settings, plan: segment.plan(frameRate: preset.settings.video.frameRate, start: request.startTime),
                    sink: segmented)
            } else {
                output = try devices.makeMovieOutput(path: entry.partialPath, settings: preset.settings,
                                                     maxDuration: request.duration, byteBudget: budget)
            }
            stretcher = try audio.flatMap { try devices.makeDriftCorrector(for: $0.audioFormat) }
            let context = FeatureContext(id: entry.id, startTime: request.startTime, frameRate: preset.settings.video.frameRate,
                                         camera: camera.name, cameraPath: camera.path, pid: request.pid,
                                         photos: PhotoSaver(store: store, saver: saver),
                                         trigger: { [weak self] in self?.trigger() ?? false })
            featureOutputs = try request.features.flatMap { try $0.attach(to: context) }
        } catch {
            session.stopSources()
            store.abandon(entry)
            throw error
        }
        self.session.withLock { $0 = session }
        running.withLock { $0 = (entry.sidecar, preset.settings.video) }
        if stopRequested.load(ordering: .sequentiallyConsistent) { session.requestStop() }
        defer {
            self.session.withLock { $0 = nil }
            running.withLock { $0 = nil }
            eventTrigger.withLock { $0 = nil }
        }

        events(.started(id: entry.id, preset: preset.name, settings: preset.resolvedDescription,
                        sources: [camera.name, audio?.displayName].compactMap { $0 }, limit: request.duration))
        let movie = OutputConnection(output: output, policy: .sized(for: camera.format), threadName: "vidrec.encode")
        // What `vidrec status` follows: a continuous recording's open segment, else the
        // recording (also while it waits for triggers).
        let progressID = { request.segment?.events == nil ? segmented?.currentID ?? entry.id : entry.id }
        let outcome: RecordingOutcome
        do {
            outcome = try session.run(outputs: [movie] + featureOutputs, stretcher: stretcher) { progress in
                events(.progress(progress))
                store.writeProgress(progress, id: progressID())
            }
        } catch {
            // A source that could not start: nothing was recorded, so nothing is kept.
            store.abandon(entry)
            throw error
        }
        store.endProgress(id: progressID())
        events(.ended)

        var report = RecordingReport(id: entry.id, outcome: outcome, audioSampleRate: audio?.audioFormat.sampleRate,
                                     overruns: (audio as? OverrunCounting)?.overruns)
        report.featureLines = request.features.flatMap { $0.recordingEnded(outcome) }
        eventTrigger.withLock { $0 = nil }
        if let segmented {
            // Every segment was finalized (and saved) as it closed; the last one's
            // sidecar also says how the recording ended. Waiting for triggers that never
            // came leaves nothing.
            report.segments = segmented.closed
            // The recording that waited for triggers leaves only its events; one stopped
            // before its first frame, nothing.
            report.nothingRecorded = report.segments.isEmpty && request.segment?.events == nil
                && outcome.error == nil && outcome.videoFrames == 0
            if request.segment?.events != nil || report.nothingRecorded {
                store.abandon(entry)
                withExtendedLifetime(lock) {}
            }
            if let last = report.segments.last, var sidecar = try? store.entry(id: last).sidecar {
                if outcome.error != nil, sidecar.state == .finished { sidecar.state = .failed }
                Recorder.describe(outcome, of: report, in: &sidecar)
                try? store.write(sidecar)
            }
            return report
        }

        // Stopped before the first frame: there is nothing to keep or save.
        if outcome.error == nil, outcome.videoFrames == 0, outcome.duration == Rational(0) {
            store.abandon(entry)
            withExtendedLifetime(lock) {}
            report.nothingRecorded = true
            return report
        }

        // Finalize the fragments into an indexed movie, then record the result. A write
        // that failed (a full disk) may have torn the last fragment part-way through one
        // stream: both are trimmed to their common end then.
        do {
            try store.finalize(entry, with: saver.finalizer, trimToCommonEnd: outcome.error != nil)
        } catch {
            report.finalizeError = error
        }
        // The sidecar as the recording left it (a camera switch adds to it).
        var sidecar = running.withLock { $0?.sidecar } ?? entry.sidecar
        sidecar.state = report.finalizeError != nil ? .interrupted : outcome.reason.isSuccess ? .finished : .failed
        sidecar.duration = outcome.duration.doubleValue
        sidecar.videoFrames = outcome.videoFrames
        Recorder.describe(outcome, of: report, in: &sidecar)
        // On a full disk even the sidecar may not fit; the recording then reads as
        // interrupted, which is true, and stays recoverable.
        let sidecarWritten = (try? store.write(sidecar)) != nil
        // The sidecar now says how it ended; the lock file has done its job.
        if report.finalizeError == nil && sidecarWritten { FileSystem.removeQuietly(entry.lockPath) }
        withExtendedLifetime(lock) {}

        if let save = request.save, report.endedWell {
            (report.savedPath, report.removedFromAlbum) = try saver.save(store.entry(id: entry.id), to: save)
        }
        return report
    }

    /// Writes how the recording went into `sidecar`: drops, repeats, audio repairs, the
    /// end reason (for a continuous recording, into its last segment's, for all of it).
    private static func describe(_ outcome: RecordingOutcome, of report: RecordingReport, in sidecar: inout RecordingSidecar) {
        sidecar.droppedFrames = outcome.droppedFrames + outcome.queueDroppedFrames
        sidecar.cameraSkippedFrames = outcome.deviceSkippedFrames
        sidecar.undecodableFrames = outcome.undecodableFrames
        sidecar.surplusFrames = outcome.surplusFrames > 0 ? outcome.surplusFrames : nil
        sidecar.repeatedFrames = outcome.repeatedFrames
        sidecar.switchFilledFrames = outcome.switchFilledFrames > 0 ? outcome.switchFilledFrames : nil
        sidecar.insertedSilence = report.audioSampleRate.map { Double(outcome.insertedSilence) / Double($0) }
        sidecar.closingSilence = report.audioSampleRate.map { Double(outcome.closingSilence) / Double($0) }
        sidecar.droppedAudio = report.audioSampleRate.map { Double(outcome.droppedAudio) / Double($0) }
        sidecar.driftCorrection = report.audioSampleRate.map { Double(outcome.stretchedAudio) / Double($0) }
        sidecar.overruns = report.overruns
        // A segment starts later than the recording's time 0: only a single movie has it.
        sidecar.clockOrigin = sidecar.segment == nil ? outcome.clockOrigin.map { Double($0) / Double(Duration.nanosecondsPerSecond) } : nil
        sidecar.endReason = outcome.reason.message
    }
}
