import Synchronization
import VidrecMedia
import VidrecSystem

/// Joins a camera and an optional microphone to any number of outputs, as AVFoundation's
/// `AVCaptureSession` joins inputs to an `AVCaptureMovieFileOutput` and the outputs
/// beside it.
///
/// Timing lives here, in stream units, on one clock:
/// - the first video frame is t = 0; each frame's index on the output frame grid is its
///   capture time (CLOCK_MONOTONIC) since then, times the frame rate, rounded; a frame
///   the camera skipped leaves a gap, so the movie keeps real time;
/// - audio is placed by its capture time on the same clock: trimmed or padded with
///   silence at the start, and padded where the microphone's stream has a gap;
/// - the limiter and ``requestStop()`` set an end frame; audio ends at the same time.
///
/// Threads and queues: sources push into one bounded ``CaptureQueue``; ``run(outputs:progress:)``
/// drains it on the calling thread, places what arrives, and offers it to every output's
/// ``OutputConnection``, each with its own thread and bounded queue. Placing costs next
/// to nothing, so the capture queue stays short however slow an output is; an output
/// that falls behind drops video in its own queue (counted), never audio.
public final class CaptureSession: Sendable {
    /// How long a source may stay silent before the session treats it as gone, in
    /// nanoseconds (``CaptureTiming/stallTimeout``).
    public static let stallTimeout = CaptureTiming.stallTimeout.nanoseconds
    /// How often the session reports progress, in nanoseconds.
    public static let progressInterval = CaptureTiming.progressInterval.nanoseconds
    /// How often the free space is checked for `--min-free`, in nanoseconds.
    public static let freeSpaceInterval = CaptureTiming.freeSpaceInterval.nanoseconds

    /// The camera the session starts with; the loop takes it, so that a camera switched
    /// away from is released (closed, its controls set back) at once.
    private let firstVideo: Mutex<(any VideoCaptureSource)?>
    /// The camera once ``startSources()`` has started it, until the loop takes it.
    private let startedVideo = Mutex<(any VideoCaptureSource)?>(nil)
    private let pendingSwitch = Mutex<CameraSwitch?>(nil)
    private let running = Atomic<Bool>(false)
    private let audio: (any AudioCaptureSource)?
    private let frameRate: Rational
    private let limits: RecordingLimits
    private let freeSpace: @Sendable () -> Int64?
    private let queue: CaptureQueue
    private let reconnection: CameraReconnection?
    private let microphoneReconnection: MicrophoneReconnection?
    private let stopRequested = Atomic<Bool>(false)
    /// Whether the movie is to be paused, as last asked, and the newest asking the loop
    /// has not applied yet (with its time).
    private let pauseState = Mutex<(paused: Bool, unapplied: Int64?)>((false, nil))

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - video: the camera.
    ///   - audio: the microphone, or `nil` for a silent movie.
    ///   - frameRate: the output frame rate (the preset's).
    ///   - limits: duration, file size and free-space limits.
    ///   - freeSpace: bytes free where the file is written (checked every second).
    ///   - queue: the queue the sources push into.
    ///   - reconnection: how a camera that goes away is waited for (`--reconnect`);
    ///     `nil`: its loss ends the recording.
    ///   - microphoneReconnection: the same for the microphone.
    public init(video: any VideoCaptureSource, audio: (any AudioCaptureSource)?, frameRate: Rational,
                limits: RecordingLimits, freeSpace: @escaping @Sendable () -> Int64? = { nil },
                queue: CaptureQueue = CaptureQueue(), reconnection: CameraReconnection? = nil,
                microphoneReconnection: MicrophoneReconnection? = nil) {
        self.reconnection = reconnection
        self.microphoneReconnection = microphoneReconnection
        self.firstVideo = Mutex(video)
        self.audio = audio
        self.frameRate = frameRate
        self.limits = limits
        self.freeSpace = freeSpace
        self.queue = queue
    }

    /// Asks the session to end: the movie ends after the newest video frame, with audio
    /// to the same time. Safe from any thread (a signal handler's queue, `vidrec stop`).
    public func requestStop() {
        stopRequested.store(true, ordering: .sequentiallyConsistent)
    }

    /// Pauses the movie, as `AVCaptureMovieFileOutput.pauseRecording()` does: what the
    /// sources capture from now on is left out (the sources keep running, so resuming is
    /// at once), until ``resume()``. The movie's timeline has no gap: the limit counts
    /// only what was recorded. A stop while paused ends the movie where it paused. Safe
    /// from any thread.
    ///
    /// - Returns: whether it was recording (not already paused).
    /// - Throws: ``CaptureSessionError/notRunning`` when the session is not recording.
    public func pause() throws -> Bool {
        try setPaused(true)
    }

    /// Resumes a paused movie: both streams go on from where they paused, the first frame
    /// captured from now on in the slot after the last one (``Timeline/resume(at:)``).
    /// Safe from any thread.
    ///
    /// - Returns: whether it was paused.
    /// - Throws: ``CaptureSessionError/notRunning`` when the session is not recording.
    public func resume() throws -> Bool {
        try setPaused(false)
    }

    private func setPaused(_ paused: Bool) throws -> Bool {
        guard running.load(ordering: .sequentiallyConsistent), !stopRequested.load(ordering: .sequentiallyConsistent) else {
            throw CaptureSessionError.notRunning
        }
        let now = MonotonicClock.now()
        return pauseState.withLock { state in
            guard state.paused != paused else { return false }
            state = (paused, now)
            return true
        }
    }

    /// Goes on recording from `camera` instead, as `AVCaptureSession` swaps inputs
    /// between `beginConfiguration` and `commitConfiguration`: between two frames the
    /// current camera is stopped and `camera` started into the same queue, on the same
    /// timeline. The slots the new camera takes to send its first frame are filled with
    /// the last frame of the old one, so the movie has no gap; audio is not touched.
    /// Waits until the switch is made.
    ///
    /// - Parameter camera: opened in a mode of the movie's size (or one fitted to it), not
    ///   started.
    /// - Returns: the media time from which `camera` is recorded.
    /// - Throws: ``CaptureSessionError/notRunning`` when the session is not recording;
    ///   the new camera's error when it cannot start (the old one then records on).
    public func switchCamera(to camera: any VideoCaptureSource) throws -> Rational {
        let request = CameraSwitch(camera: camera)
        let accepted = pendingSwitch.withLock { pending -> Bool in
            guard running.load(ordering: .sequentiallyConsistent), pending == nil else { return false }
            pending = request
            return true
        }
        guard accepted else { throw CaptureSessionError.notRunning }
        return try request.wait()
    }

    /// Starts the microphone and then the camera ahead of ``run(outputs:stretcher:progress:)``,
    /// so that the encoder and the file can be opened while the camera's first frames
    /// arrive (they wait in the capture queue): recording begins with the camera, not
    /// after the encoder. Without it, `run` starts them.
    ///
    /// - Throws: the source's error when one cannot start; neither is left running.
    public func startSources() throws {
        guard let video = firstVideo.withLock({ first in defer { first = nil }; return first }) else {
            preconditionFailure("a capture session starts its sources once")
        }
        // The microphone first: what it captures before the camera's first frame is
        // trimmed, while a microphone started after that frame would leave the movie's
        // first moments silent (by as long as starting it took on a loaded machine).
        try audio?.start(into: queue)
        do { try video.start(into: queue) } catch {
            audio?.stop()
            throw error
        }
        startedVideo.withLock { $0 = video }
    }

    /// Stops the sources ``startSources()`` started, for a recording that ends before it
    /// runs (its outputs could not be opened).
    public func stopSources() {
        guard let video = startedVideo.withLock({ started in defer { started = nil }; return started }) else { return }
        audio?.stop()
        video.stop()
    }

    /// Starts the sources and the outputs, records until the limit, a stop request or a
    /// failure, then stops the sources and finishes every output.
    ///
    /// The first essential output is the movie: the size limits apply to it, and the
    /// outcome counts its frames and bytes. An essential output that fails ends the
    /// recording; another output that fails is left behind and named in the outcome.
    ///
    /// - Parameters:
    ///   - outputs: the outputs' connections, not yet started; at least one essential.
    ///   - stretcher: resamples audio to correct the microphone's clock drift; without
    ///     one, drift is left uncorrected.
    ///   - progress: called about twice a second on this thread.
    ///   - reconnections: called on this thread when the camera or the microphone goes,
    ///     comes back, or is given up on (``CameraReconnection``, ``MicrophoneReconnection``).
    /// - Returns: the outcome; a failure of a source or of an essential output is reported
    ///   in it, after every output has been finished with what was recorded before it.
    /// - Throws: only when a source cannot be started (nothing has been recorded).
    public func run(outputs: [OutputConnection], stretcher: (any AudioStretching)? = nil,
                    progress: (SessionProgress) -> Void = { _ in },
                    reconnections: (ReconnectionEvent) -> Void = { _ in }) throws -> RecordingOutcome {
        guard let movie = outputs.first(where: \.policy.isEssential) else {
            preconditionFailure("a capture session needs an essential output")
        }
        if startedVideo.withLock({ $0 == nil }) { try startSources() }
        guard startedVideo.withLock({ $0 != nil }) else { preconditionFailure("a capture session runs once") }
        running.store(true, ordering: .sequentiallyConsistent)
        for output in outputs { output.start() }
        // The camera goes straight into the loop, the one owner of it from here: a camera
        // switched away from, or one that went, is closed as the loop lets it go (the
        // same device can then be opened again).
        var loop = SessionLoop(outputs: outputs, movie: movie, stretcher: stretcher,
                               video: startedVideo.withLock { started in defer { started = nil }; return started! },
                               audio: audio, frameRate: frameRate, maxDuration: limits.maxDuration, reconnection: reconnection,
                               microphoneReconnection: microphoneReconnection)
        while !loop.timeline.isComplete(now: MonotonicClock.now()) {
            let now = MonotonicClock.now()
            if let failed = outputs.first(where: { $0.policy.isEssential && $0.failure != nil }) {
                // The file cannot take more (disk full, I/O error): stop at once.
                loop.outputFailure = failed.failure
                break
            }
            applyRequests(to: &loop, now: now)
            loop.releaseIfQuiet(now: now)
            checkLimits(of: &loop, now: now)
            if let report = loop.progress(now: now, queue: queue) { progress(report) }
            if let request = pendingSwitch.withLock({ $0 }) {
                loop.switchCamera(request, queue: queue)
                pendingSwitch.withLock { $0 = nil }
            }
            loop.checkLostCamera(now: now, queue: queue)
            loop.checkLostMicrophone(now: now, queue: queue)
            for event in loop.takeEvents() { reconnections(event) }
            guard let event = queue.pop(timeout: 0.05) else { continue }
            loop.handle(event)
        }
        loop.endLoss(at: MonotonicClock.now(), back: false)
        loop.endMicrophoneLoss(at: MonotonicClock.now(), back: false)
        if loop.outputFailure == nil { loop.releaseHeld() }
        // A switch whose camera sent nothing before the end: it records from the end on.
        loop.switching?.finish(.success(Rational(loop.timeline.lastFrameIndex + 1) * frameRate.reciprocal))
        running.store(false, ordering: .sequentiallyConsistent)
        pendingSwitch.withLock { pending in
            pending?.finish(.failure(CaptureSessionError.notRunning))
            pending = nil
        }
        loop.audio?.stop()
        loop.video.stop()
        let (repeated, closingSilence) = loop.close()
        let lostOutputs = loop.finishOutputs()
        return outcome(of: loop, repeated: repeated, closingSilence: closingSilence, lostOutputs: lostOutputs)
    }

    /// Applies what was asked from other threads since the last pass: a pause or a
    /// resume, and a stop. A pause or a resume takes effect after the newest frame the
    /// session has seen (in the sources' own capture times, whatever lag the queue
    /// had), or at the time it was asked before any frame.
    private func applyRequests(to loop: inout SessionLoop, now: Int64) {
        if let (paused, asked) = pauseState.withLock({ state in
            defer { state.unapplied = nil }
            return state.unapplied.map { (state.paused, $0) }
        }) {
            let at = loop.timeline.newestFrameTime.map { $0 + 1 } ?? asked
            if paused {
                loop.releaseHeld()
                loop.timeline.pause(at: at)
            } else {
                loop.timeline.resume(at: at)
            }
        }
        if stopRequested.load(ordering: .relaxed), !loop.timeline.isStopping {
            loop.timeline.stop(at: now)
        }
    }

    /// Ends the movie at the size and free-space limits, and when a source has gone
    /// silent.
    private func checkLimits(of loop: inout SessionLoop, now: Int64) {
        if !loop.timeline.isStopping, let reason = checkSpace(loop.movie, loop.timeline, now: now, lastCheck: &loop.lastSpaceCheck) {
            loop.limitReason = reason
            loop.timeline.stop(at: now)
        }
        // (A microphone that is gone is waited for, not stalled.)
        if loop.sourceFailure == nil, loop.lost == nil,
           let stall = loop.timeline.stalledSource(now: now, timeout: CaptureSession.stallTimeout),
           stall == .video || loop.microphoneLoss == nil {
            let failure = CaptureSessionError.stalled(stall == .video ? loop.video.displayName : loop.audio!.displayName, stall)
            let silent = "it sent nothing for \(CaptureTiming.stallTimeout.wholeSeconds) s"
            if stall == .video, loop.canWaitForCamera {
                // A camera that stopped sending without a word is waited for as one that went.
                loop.loseCamera(failure, reason: silent, at: now)
            } else if stall == .audio, loop.canWaitForMicrophone {
                loop.loseMicrophone(failure, reason: silent, at: now)
            } else {
                loop.sourceFailure = failure
                loop.timeline.stop(at: now)
            }
        }
    }

    /// How the recording went, from what the loop kept.
    private func outcome(of loop: SessionLoop, repeated: Int64, closingSilence: Int64, lostOutputs: [String]) -> RecordingOutcome {
        let timeline = loop.timeline
        let movie = loop.movie
        let failure = loop.outputFailure ?? loop.sourceFailure
        // Frames keep arriving (and, unread, are dropped) until the camera stops; only
        // drops that left an empty slot in the movie count.
        let captureDropped = min(Int64(queue.droppedVideoFrames), timeline.droppedFrames)
        let movieDropped = movie.droppedVideoFrames
        let leftOut = movie.leftOutFrames

        let reason: EndReason
        if let failure {
            reason = .failed("\(failure)")
        } else if let limitReason = loop.limitReason {
            reason = limitReason
        } else if timeline.reachedLimit, let limit = limits.maxDuration {
            reason = .maximumDuration(limit)
        } else {
            reason = .stopped
        }
        var outcome = RecordingOutcome(
            reason: reason, error: failure, videoFrames: timeline.videoFrames - movieDropped - leftOut,
            audioFrames: loop.gate.released + closingSilence,
            // Every empty slot is counted once: those a queue caused (the capture queue's
            // while the movie ran, not after its end, and the movie output's own) and
            // those the camera left.
            duration: timeline.duration, droppedFrames: timeline.droppedFrames - captureDropped,
            queueDroppedFrames: captureDropped + movieDropped, deviceSkippedFrames: timeline.sequenceGaps,
            repeatedFrames: repeated, switchFilledFrames: loop.switchFilled, insertedSilence: timeline.insertedSilence,
            closingSilence: closingSilence, stretchedAudio: timeline.stretchedAudio,
            droppedAudio: timeline.droppedAudio + queue.droppedAudioFrames, bytes: movie.bytesWritten,
            lostOutputs: lostOutputs)
        outcome.undecodableFrames = leftOut
        outcome.surplusFrames = timeline.surplusFrames
        outcome.movedSoundStart = timeline.movedStart
        outcome.pausedFrames = timeline.pausedFrames
        outcome.clockOrigin = timeline.origin
        outcome.cameraGapFrames = loop.lostFilled
        outcome.cameraReturns = loop.gaps.filter(\.back).count
        outcome.cameraGaps = loop.gaps
        outcome.microphoneGapFrames = loop.silenceFilled
        outcome.microphoneGaps = loop.microphoneGaps
        return outcome
    }
}

extension CaptureSession {
    /// `--max-size` on every pass (a cheap property read), `--min-free` once a second:
    /// both stop early enough that what the encoder and muxer still hold fits.
    private func checkSpace(_ movie: OutputConnection, _ timeline: Timeline, now: Int64,
                            lastCheck: inout Int64) -> EndReason? {
        let written = movie.bytesWritten
        // What the movie's output has taken, and what still waits in its queue.
        let seconds = (Rational(movie.writtenVideoEnd) * frameRate.reciprocal).doubleValue
        let waiting = (Rational(max(0, timeline.videoEnd - movie.writtenVideoEnd)) * frameRate.reciprocal).doubleValue
        if let maxFileSize = limits.maxFileSize,
           written + limits.closingMargin(bytesWritten: written, mediaSeconds: seconds, waitingSeconds: waiting, cap: maxFileSize) >= maxFileSize {
            return .maximumFileSize(maxFileSize)
        }
        guard let floor = limits.minFreeSpace, now - lastCheck >= CaptureSession.freeSpaceInterval else { return nil }
        lastCheck = now
        let margin = limits.closingMargin(bytesWritten: written, mediaSeconds: seconds, waitingSeconds: waiting)
        guard var free = freeSpace(), free - margin < floor else { return nil }
        // A continuous recording makes room by removing its oldest segments first.
        while let reclaim = limits.reclaim, reclaim() {
            guard let now = freeSpace() else { return nil }
            free = now
            if free - margin >= floor { return nil }
        }
        return .lowDiskSpace(free: free, floor: floor)
    }
}
