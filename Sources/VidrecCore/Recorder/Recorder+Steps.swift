import Foundation
import VidrecMedia
import VidrecSystem

/// The steps of ``Recorder/record(_:events:)``, in order.
extension Recorder {
    /// A recording being made: what one step hands on to the next.
    struct Assembly {
        /// The preset, adjusted to the camera and the microphone.
        var preset: Preset
        /// The camera at the start: its name, path, mode and format.
        var camera: (name: String, path: String?, mode: String?, format: VideoFormat)
        /// The camera's stream, when the movie stores it as it is.
        var copiedStream: (any CompressedVideoSource)?
        var audio: (any AudioCaptureSource)?
        var session: CaptureSession
        /// The recording in the pending area, once created.
        var entry: RecordingStore.Entry!
        /// Its lock, held here until the recording ends, unless a continuous recording's
        /// first segment has taken it over (which unlocks it when it closes).
        var lock: RecordingLock?
        /// The files of a segmented or event recording (the segments, when there are both).
        var segmented: SegmentedRecording?
        /// The event files written beside the segments (``RecordingMode/segmentsAndEvents(_:_:_:events:)``).
        var eventFiles: SegmentedRecording?
    }

    /// Before anything is opened: the album can be written, the disk is above the
    /// floor, and no other recording holds the camera.
    ///
    /// - Returns: the free space in the pending area, if known.
    func checkBeforeStarting(_ request: RecordingRequest) throws -> Int64? {
        if let save = request.save { try save.album.prepare() }
        let free = freeSpace(store.directory)
        if let floor = request.minFreeSpace, let free, free < floor {
            throw RecorderError.lowDiskSpace(directory: store.directory, free: free, floor: floor)
        }
        if let path = try devices.findCamera(), let running = store.running().first(where: { $0.sidecar.cameraPath == path }) {
            throw RecorderError.cameraBusy(path: path, id: running.id, pid: running.sidecar.pid, since: running.sidecar.startTime)
        }
        return free
    }

    /// Opens the microphone and the camera, and starts them in a new session: the
    /// pending entry, the encoder and the file are made while their first frames
    /// arrive, as ffmpeg's v4l2 input does, so the recording begins a few hundred
    /// milliseconds sooner on a slow machine. A source that cannot start leaves nothing
    /// behind.
    func startSources(for request: RecordingRequest) throws -> Assembly {
        var preset = request.preset
        let audio = try devices.openMicrophone(for: preset.settings.audio)
        // Only the session holds the camera once it runs, so that a camera switched
        // away from is released at once.
        var opened: OpenedCamera? = try devices.openCamera(adjusting: &preset.settings.video)
        let camera = (name: opened!.source.displayName, path: opened!.path, mode: opened!.mode, format: opened!.source.videoFormat)
        preset.settings.video.overlay = preset.settings.video.overlay?.naming(camera: camera.name)
        let copiedStream = opened!.copiedStream
        if audio == nil { preset.settings.audio = nil }
        if preset.settings.isAudioOnly {
            // A sound recording: its "camera" only keeps time, and the file is a sound file.
            guard let codec = preset.settings.audio?.codec else {
                opened = nil
                throw RecorderError.nothingToRecord
            }
            preset.settings.container = preset.settings.container.soundFile(for: codec)
        }
        var limits = RecordingLimits(maxDuration: request.maxDuration, maxFileSize: request.maxFileSize,
                                     minFreeSpace: request.minFreeSpace,
                                     nominalBytesPerSecond: preset.settings.nominalBytesPerSecond)
        // A segmented or event recording goes on at the floor by removing its oldest
        // files (made once the recording's entry exists).
        if request.mode.series != nil {
            limits.reclaim = { [weak self] in self?.state.withLock { $0.segments }?.reclaimOldest() ?? false }
        }
        let pending = store.directory
        let freeSpace = freeSpace
        let session = CaptureSession(video: opened!.source, audio: audio, frameRate: preset.settings.video.frameRate,
                                     limits: limits, freeSpace: { freeSpace(pending) },
                                     queue: CaptureQueue.sized(for: camera.format),
                                     reconnection: reconnection(request, video: preset.settings.video, camera: camera.name,
                                                                copiesStream: copiedStream != nil),
                                     microphoneReconnection: microphoneReconnection(request, audio: preset.settings.audio, microphone: audio))
        opened = nil
        try session.startSources()
        return Assembly(preset: preset, camera: camera, copiedStream: copiedStream, audio: audio, session: session)
    }

    /// How the session waits for a camera that goes away (`--reconnect`): it opens the
    /// camera as at the start and takes it only as the same camera in the same mode.
    /// `nil` (its loss ends the recording) without a window, for a sound recording, and
    /// for a camera whose stream the movie stores as it is (another stream of it could
    /// not continue the file's).
    func reconnection(_ request: RecordingRequest, video: VideoEncoding, camera: String,
                      copiesStream: Bool) -> CameraReconnection? {
        guard let window = request.reconnect, window > Rational(0), video.isRecorded, !copiesStream else { return nil }
        let devices = self.devices
        return CameraReconnection(window: window) {
            var reopened = video
            let opened = try devices.openCamera(adjusting: &reopened)
            guard opened.source.displayName == camera, reopened == video, opened.copiedStream == nil else {
                throw RecorderError.otherCamera(expected: camera, found: opened.source.displayName)
            }
            return opened.source
        }
    }

    /// How the session waits for a microphone that goes away (`--reconnect`): it opens
    /// the microphone as at the start and takes it only under the same name, in the
    /// same format. `nil` (its loss ends the recording) without a window or a microphone.
    func microphoneReconnection(_ request: RecordingRequest, audio encoding: AudioEncoding?,
                                microphone: (any AudioCaptureSource)?) -> MicrophoneReconnection? {
        guard let window = request.reconnect, window > Rational(0), let microphone else { return nil }
        let (devices, name, format) = (self.devices, microphone.displayName, microphone.audioFormat)
        return MicrophoneReconnection(window: window) {
            guard let reopened = try devices.openMicrophone(for: encoding) else { throw RecorderError.otherMicrophone(expected: name, found: "none") }
            guard reopened.displayName == name, reopened.audioFormat == format else {
                throw RecorderError.otherMicrophone(expected: name, found: reopened.displayName)
            }
            return reopened
        }
    }

    /// Creates the recording in the pending area (locked, with its sidecar) and, for a
    /// segmented or event recording, its series of files. The sources are stopped if it
    /// cannot be made.
    func createEntry(for request: RecordingRequest, in recording: inout Assembly) throws {
        let (preset, camera, audio) = (recording.preset, recording.camera, recording.audio)
        do {
            let (entry, lock) = try store.create(at: request.startTime) { id in
                var sidecar = RecordingSidecar(
                    id: id, preset: preset.name, presetFile: preset.file, camera: camera.name,
                    microphone: audio?.displayName, container: preset.settings.container, startTime: request.startTime,
                    pid: request.pid, maxDuration: request.maxDuration?.seconds.doubleValue)
                sidecar.cameraPath = camera.path
                sidecar.cameraMode = camera.mode
                sidecar.cameras = [CameraUse(camera: camera.name, path: camera.path, mode: camera.mode, from: 0)]
                if !preset.settings.isAudioOnly { sidecar.frameRate = "\(preset.settings.video.frameRate)" }
                sidecar.saveName = request.saveName
                sidecar.controlSocket = request.controlSocket(id: id)
                if request.mode.series != nil { sidecar.segment = 0 }
                return sidecar
            }
            (recording.entry, recording.lock) = (entry, lock)
        } catch {
            recording.session.stopSources()
            throw error
        }
        recording.preset.settings.metadata = Recorder.movieMetadata(preset: preset.name, camera: camera.name,
                                                                    microphone: audio?.displayName, title: request.saveName,
                                                                    startTime: request.startTime)
        guard let series = request.mode.series else { return }
        let entry = recording.entry!
        // A continuous recording's first segment takes the recording's lock over; a
        // recording that waits for triggers keeps it (and its pending entry, without a
        // file, which status and stop find) until it ends.
        let waits = request.mode.waitsForTriggers
        // Both series (segments or events, and events beside segments) title their files
        // and take the running recording's sidecar the same way.
        let metadata: @Sendable (Date, String?) -> [String: String] = { date, name in
            Recorder.movieMetadata(preset: preset.name, camera: camera.name, microphone: audio?.displayName,
                                   title: name, startTime: date)
        }
        let sidecar: @Sendable () -> RecordingSidecar = { [weak self] in self?.state.withLock { $0.running?.sidecar } ?? entry.sidecar }
        let segmented = SegmentedRecording(
            store: store, saver: saver, save: request.save, series: series, files: waits ? .events : .segments, first: entry,
            lock: waits ? nil : recording.lock, startTime: request.startTime, metadata: metadata, sidecar: sidecar)
        if !waits { recording.lock = nil }
        recording.segmented = segmented
        state.withLock { $0.segments = segmented }
        // Events beside the segments: each a new pending recording, as when waiting.
        if case let .segmentsAndEvents(_, _, _, events) = request.mode {
            recording.eventFiles = SegmentedRecording(
                store: store, saver: saver, save: request.save, series: events, files: .eventsBesideSegments, first: entry,
                lock: nil, startTime: request.startTime, metadata: metadata, sidecar: sidecar)
        }
    }

    /// Makes the movie output for the request's mode, the drift corrector and the
    /// features' outputs, and publishes the running recording to the other threads. If
    /// one cannot be made, the sources stop and nothing is left pending.
    ///
    /// - Returns: the movie's connection, the drift corrector, the features' connections.
    func makeOutputs(for request: RecordingRequest, free: Int64?, in recording: inout Assembly) throws
        -> (movie: OutputConnection, stretcher: (any AudioStretching)?, features: [OutputConnection]) {
        let settings = recording.preset.settings
        let entry = recording.entry!
        let output: any CaptureOutput
        let stretcher: (any AudioStretching)?
        let features: [OutputConnection]
        do {
            switch (request.mode, recording.segmented) {
            case let (.events(events, _), segmented?):
                let made = try outputs.makeEventMovieOutput(settings: settings, pre: events.pre, post: events.post, sink: segmented,
                                                            copying: recording.copiedStream)
                output = made.output
                state.withLock { $0.trigger = made.trigger }
            case let (.segmentsAndEvents(segments, _, events, _), segmented?):
                let made = try outputs.makeSegmentedEventMovieOutput(
                    settings: settings, plan: segments.plan(frameRate: settings.video.frameRate, start: request.startTime), sink: segmented,
                    events: events, eventSink: recording.eventFiles!, copying: recording.copiedStream)
                output = made.output
                state.withLock { $0.trigger = made.trigger }
            case let (.segments(segments, _), segmented?):
                output = try outputs.makeSegmentedMovieOutput(
                    settings: settings, plan: segments.plan(frameRate: settings.video.frameRate, start: request.startTime), sink: segmented,
                    copying: recording.copiedStream)
            default:
                // The file may take no more than --max-size, nor the free space above the floor.
                let aboveFloor = free.map { $0 - (request.minFreeSpace ?? 0) }
                let budget = [request.maxFileSize, aboveFloor].compactMap { $0 }.min()
                output = try outputs.makeMovieOutput(path: entry.partialPath, settings: settings,
                                                     maxDuration: request.maxDuration, byteBudget: budget, copying: recording.copiedStream)
            }
            stretcher = try recording.audio.flatMap { try outputs.makeDriftCorrector(for: $0.audioFormat) }
            var context = FeatureContext(id: entry.id, startTime: request.startTime, frameRate: settings.video.frameRate,
                                         camera: recording.camera.name, cameraPath: recording.camera.path, pid: request.pid,
                                         photos: PhotoSaver(store: store, saver: saver),
                                         trigger: { [weak self] in self?.trigger() ?? false })
            context.hasPicture = !settings.isAudioOnly
            features = try request.features.flatMap { try $0.attach(to: context) }
        } catch {
            recording.session.stopSources()
            store.abandon(entry)
            state.withLock { $0.segments = nil; $0.trigger = nil }
            throw error
        }
        let session = recording.session
        let stopped = state.withLock { state in
            state.session = session
            state.running = (entry.sidecar, settings.video)
            return state.stopRequested
        }
        if stopped { session.requestStop() }
        let movie = OutputConnection(output: output, policy: .sized(for: recording.camera.format), threadName: "vidrec.encode")
        return (movie, stretcher, features)
    }

    /// Runs the session until it ends, reporting its progress (also to `vidrec status`:
    /// a continuous recording's open segment, else the recording, also while it waits
    /// for triggers). A source that could not start leaves nothing pending.
    func run(_ recording: Assembly, movie: OutputConnection, features: [OutputConnection], stretcher: (any AudioStretching)?,
             waitsForTriggers: Bool, events: (RecorderEvent) -> Void) throws -> RecordingOutcome {
        let entry = recording.entry!
        let segmented = recording.segmented
        let progressID = { waitsForTriggers ? entry.id : segmented?.currentID ?? entry.id }
        let outcome: RecordingOutcome
        do {
            let isAudioOnly = recording.preset.settings.isAudioOnly
            outcome = try recording.session.run(outputs: [movie] + features, stretcher: stretcher, progress: { progress in
                var progress = progress
                progress.isAudioOnly = isAudioOnly
                events(.progress(progress))
                store.writeProgress(progress, id: progressID())
            }, reconnections: { events(.reconnection($0)) })
        } catch {
            // Nothing was recorded, so nothing is kept.
            store.abandon(entry)
            throw error
        }
        store.endProgress(id: progressID())
        events(.ended)
        return outcome
    }

    /// The end of a segmented or event recording: every file was finalized (and saved)
    /// as it closed; the last one's sidecar also says how the recording ended. Waiting
    /// for triggers that never came, or a stop before the first frame, leaves nothing.
    func finishSeries(_ segmented: SegmentedRecording, of recording: Assembly, waitsForTriggers: Bool,
                      report: RecordingReport) -> RecordingReport {
        var report = report
        let outcome = report.outcome
        report.segments = segmented.closed
        report.events = recording.eventFiles?.closed ?? []
        report.nothingRecorded = report.segments.isEmpty && !waitsForTriggers && outcome.error == nil && outcome.videoFrames == 0
        if waitsForTriggers || report.nothingRecorded {
            store.abandon(recording.entry)
            withExtendedLifetime(recording.lock) {}
        }
        if let last = report.segments.last, var sidecar = try? store.entry(id: last).sidecar {
            if outcome.error != nil, sidecar.state == .finished { sidecar.state = .failed }
            Recorder.describe(outcome, of: report, in: &sidecar)
            try? store.write(sidecar)
        }
        state.withLock { $0.segments = nil }
        return report
    }

    /// The end of a single movie: finalized into an indexed movie (trimmed to both
    /// streams' common end after a failed write, which may have torn the last fragment),
    /// its sidecar saying how it ended, unlocked, and saved when asked and it ended well.
    /// Stopped before the first frame, nothing is kept.
    func finishMovie(_ recording: Assembly, save: SaveRequest?, report: RecordingReport) throws -> RecordingReport {
        var report = report
        let outcome = report.outcome
        let entry = recording.entry!
        if outcome.error == nil, outcome.videoFrames == 0, outcome.duration == Rational(0) {
            store.abandon(entry)
            withExtendedLifetime(recording.lock) {}
            report.nothingRecorded = true
            return report
        }
        do {
            try store.finalize(entry, with: saver.finalizer, trimToCommonEnd: outcome.error != nil)
        } catch {
            report.finalizeError = error
        }
        // The sidecar as the recording left it (a camera switch adds to it).
        var sidecar = state.withLock { $0.running?.sidecar } ?? entry.sidecar
        sidecar.state = report.finalizeError != nil ? .interrupted : outcome.reason.isSuccess ? .finished : .failed
        sidecar.duration = outcome.duration.doubleValue
        sidecar.videoFrames = outcome.videoFrames
        Recorder.describe(outcome, of: report, in: &sidecar)
        // On a full disk even the sidecar may not fit; the recording then reads as
        // interrupted, which is true, and stays recoverable.
        let sidecarWritten = (try? store.write(sidecar)) != nil
        // The sidecar now says how it ended; the lock file has done its job.
        if report.finalizeError == nil && sidecarWritten { FileSystem.removeQuietly(entry.lockPath) }
        withExtendedLifetime(recording.lock) {}
        if let save, report.endedWell {
            (report.savedPath, report.removedFromAlbum) = try saver.save(store.entry(id: entry.id), to: save)
        }
        return report
    }
}
