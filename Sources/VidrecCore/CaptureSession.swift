import Synchronization
import VidrecMedia

/// Joins a camera and an optional microphone to a movie output, as AVFoundation's
/// `AVCaptureSession` joins inputs to an `AVCaptureMovieFileOutput`.
///
/// Timing lives here, in stream units, on one clock:
/// - the first video frame is t = 0; each frame's index on the output frame grid is its
///   capture time (CLOCK_MONOTONIC) since then, times the frame rate, rounded; a frame
///   the camera skipped leaves a gap, so the movie keeps real time;
/// - audio is placed by its capture time on the same clock: trimmed or padded with
///   silence at the start, and padded where the microphone's stream has a gap;
/// - the limiter and ``requestStop()`` set an end frame; audio ends at the same time.
///
/// Sources push into one bounded ``CaptureQueue``; ``run(progress:)`` drains it on the
/// calling thread and feeds the sink.
public final class CaptureSession: Sendable {
    /// How long a source may stay silent before the session treats it as gone.
    public static let stallTimeout: Int64 = 5_000_000_000

    private let video: any VideoCaptureSource
    private let audio: (any AudioCaptureSource)?
    private let frameRate: Rational
    private let limits: RecordingLimits
    private let freeSpace: @Sendable () -> Int64?
    private let queue: CaptureQueue
    private let stopRequested = Atomic<Bool>(false)

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - video: the camera.
    ///   - audio: the microphone, or `nil` for a silent movie.
    ///   - frameRate: the output frame rate (the preset's).
    ///   - limits: duration, file size and free-space limits.
    ///   - freeSpace: bytes free where the file is written (checked every second).
    public init(video: any VideoCaptureSource, audio: (any AudioCaptureSource)?, frameRate: Rational,
                limits: RecordingLimits, freeSpace: @escaping @Sendable () -> Int64? = { nil },
                queue: CaptureQueue = CaptureQueue()) {
        self.video = video
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

    /// Starts the sources, records into `sink` until the limit, a stop request or a
    /// failure, then stops the sources and finishes the sink.
    ///
    /// - Parameter progress: called about twice a second on this thread.
    /// - Returns: the outcome; a failure of a source or of the sink is reported in it,
    ///   after the file has been finished with everything recorded before the failure.
    /// - Throws: only when a source cannot be started (nothing has been recorded).
    public func run(into sink: any MovieSink, progress: (SessionProgress) -> Void = { _ in }) throws -> RecordingOutcome {
        try video.start(into: queue)
        if let audio {
            do { try audio.start(into: queue) } catch {
                video.stop()
                throw error
            }
        }
        var timeline = Timeline(frameRate: frameRate, sampleRate: audio?.audioFormat.sampleRate,
                                limit: limits.duration, start: MonotonicClock.now())
        var sourceFailure: (any Error)?
        var lastFrame: VideoFrame?
        var gate = AudioGate()
        var sinkFailure: (any Error)?
        var limitReason: EndReason?
        var lastSpaceCheck: Int64 = 0
        var lastProgress = MonotonicClock.now()
        var framesAtLastProgress: Int64 = 0

        while !timeline.isComplete(now: MonotonicClock.now()) {
            let now = MonotonicClock.now()
            if stopRequested.load(ordering: .relaxed), !timeline.isStopping {
                timeline.stop(at: now)
            }
            if !timeline.isStopping, let reason = checkSpace(sink, timeline, now: now, lastCheck: &lastSpaceCheck) {
                limitReason = reason
                timeline.stop(at: now)
            }
            if sourceFailure == nil, let stall = timeline.stalledSource(now: now, timeout: CaptureSession.stallTimeout) {
                sourceFailure = CaptureSessionError.stalled(stall == .video ? video.displayName : audio!.displayName, stall)
                timeline.stop(at: now)
            }
            if now - lastProgress >= 500_000_000 {
                let rate = Double(timeline.videoFrames - framesAtLastProgress) * 1e9 / Double(now - lastProgress)
                progress(SessionProgress(elapsed: timeline.duration.doubleValue, videoFrames: timeline.videoFrames,
                                         framesPerSecond: rate, bytes: sink.bytesWritten,
                                         droppedFrames: timeline.droppedFrames))
                lastProgress = now
                framesAtLastProgress = timeline.videoFrames
            }
            guard let event = queue.pop(timeout: 0.05) else { continue }
            let arrival = MonotonicClock.now()
            do {
                switch event {
                case .video(let frame):
                    if let index = timeline.place(frame, arrival: arrival) {
                        try sink.appendVideo(frame, frameIndex: index)
                        lastFrame = frame
                    }
                case .audio(let chunk):
                    gate.hold(timeline.place(chunk, arrival: arrival))
                case .sourceEnded(let kind, let error):
                    // A vanished camera or microphone ends the movie where the video
                    // ends, with both streams ending together, like a stop.
                    let name = kind == .video ? video.displayName : audio?.displayName ?? "microphone"
                    sourceFailure = sourceFailure ?? CaptureSessionError.sourceEnded(name, kind, error)
                    timeline.stop(at: arrival)
                }
                // Audio follows video: it is written only as far as the video has come.
                for piece in gate.release(upTo: timeline.videoEndInAudioFrames) { try sink.appendAudio(piece) }
            } catch {
                // The file cannot take more (disk full, I/O error): stop writing at once.
                sinkFailure = error
                break
            }
        }
        // The camera skipped the last slots before the limit: the last frame stays on
        // screen until the end, so the movie keeps real time.
        var repeated: Int64 = 0
        if sinkFailure == nil, let lastFrame {
            for index in (timeline.lastFrameIndex + 1)..<max(timeline.lastFrameIndex + 1, timeline.videoEnd) {
                do { try sink.appendVideo(lastFrame, frameIndex: index) } catch { sinkFailure = error; break }
                repeated += 1
            }
        }
        // Audio ends where video ends: what was held past that is dropped, what is
        // missing is filled with silence.
        var closingPadding: Int64 = 0
        if sinkFailure == nil, audio != nil {
            do {
                for piece in gate.finish(at: timeline.finalAudioLength ?? timeline.videoEndInAudioFrames) {
                    try sink.appendAudio(piece)
                }
                if let padding = timeline.closingSilence(format: audio?.audioFormat) {
                    try sink.appendAudio(padding)
                    closingPadding = Int64(padding.frameCount)
                }
            } catch { sinkFailure = error }
        }
        var failure = sinkFailure ?? sourceFailure
        audio?.stop()
        video.stop()
        // Frames keep arriving (and, unread, are dropped) until the camera stops; only
        // drops that left an empty slot in the movie count.
        let queueDropped = min(Int64(queue.droppedVideoFrames), timeline.droppedFrames)
        do { try sink.finish() } catch { failure = failure ?? error }

        let reason: EndReason
        if let failure {
            reason = .failed("\(failure)")
        } else if let limitReason {
            reason = limitReason
        } else if timeline.reachedLimit, let limit = limits.duration {
            reason = .maximumDuration(limit)
        } else {
            reason = .stopped
        }
        return RecordingOutcome(
            reason: reason, error: failure, videoFrames: timeline.videoFrames, audioFrames: gate.released + closingPadding,
            // Every empty slot is counted once: those the queue caused (frames dropped while
            // the movie ran, not after its end) and those the camera left.
            duration: timeline.duration, droppedFrames: timeline.droppedFrames - queueDropped,
            queueDroppedFrames: queueDropped, deviceSkippedFrames: timeline.sequenceGaps,
            repeatedFrames: repeated, insertedSilence: timeline.insertedSilence,
            droppedAudio: timeline.droppedAudio + queue.droppedAudioFrames, bytes: sink.bytesWritten)
    }
}

extension CaptureSession {
    /// `--max-size` on every pass (a cheap property read), `--min-free` once a second:
    /// both stop early enough that what the encoder and muxer still hold fits.
    private func checkSpace(_ sink: any MovieSink, _ timeline: Timeline, now: Int64,
                            lastCheck: inout Int64) -> EndReason? {
        let written = sink.bytesWritten
        let seconds = timeline.duration.doubleValue
        if let maxFileSize = limits.maxFileSize,
           written + limits.closingMargin(bytesWritten: written, mediaSeconds: seconds, cap: maxFileSize) >= maxFileSize {
            return .maximumFileSize(maxFileSize)
        }
        guard let floor = limits.minFreeSpace, now - lastCheck >= 1_000_000_000 else { return nil }
        lastCheck = now
        let margin = limits.closingMargin(bytesWritten: written, mediaSeconds: seconds)
        if let free = freeSpace(), free - margin < floor {
            return .lowDiskSpace(free: free, floor: floor)
        }
        return nil
    }
}
