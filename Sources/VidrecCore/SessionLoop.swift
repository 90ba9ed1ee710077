import VidrecMedia
import VidrecSystem

/// What ``CaptureSession/run(outputs:stretcher:progress:)`` keeps while it runs, and
/// its steps: placing what the sources send on the timeline and offering it to the
/// outputs, holding frames back until their slots are final, swapping cameras, and
/// closing both streams together at the end. It lives on the session's thread only.
struct SessionLoop {
    let outputs: [OutputConnection]
    /// The first essential output: the movie, whose limits and counts the outcome has.
    let movie: OutputConnection
    let stretcher: (any AudioStretching)?
    let audio: (any AudioCaptureSource)?
    let frameRate: Rational
    var video: any VideoCaptureSource
    var timeline: Timeline
    var gate = AudioGate()
    var sourceFailure: (any Error)?
    var outputFailure: (any Error)?
    var limitReason: EndReason?
    var lastFrame: VideoFrame?
    /// Slots filled with the old camera's last frame after a camera switch.
    var switchFilled: Int64 = 0
    /// A camera switch waiting for the new camera's first frame.
    var switching: CameraSwitch?
    /// The frames placed and held back until their slots are final (see
    /// `Timeline.place(_:arrival:)`), oldest first, when the newest arrived, and the
    /// slot of the newest sent.
    var held: [VideoFrame] = []
    var heldArrival: Int64 = 0
    var sentIndex: Int64 = -1
    /// Frames are held at most this long after the newest arrived (two frame periods):
    /// a camera that goes quiet does not keep its last frames from the outputs.
    let holdLimit: Int64
    var lastSpaceCheck: Int64 = 0
    var lastProgress: Int64
    var framesAtLastProgress: Int64 = 0

    init(outputs: [OutputConnection], movie: OutputConnection, stretcher: (any AudioStretching)?,
         video: any VideoCaptureSource, audio: (any AudioCaptureSource)?, frameRate: Rational, limit: DurationLimit?) {
        self.outputs = outputs
        self.movie = movie
        self.stretcher = stretcher
        self.video = video
        self.audio = audio
        self.frameRate = frameRate
        let now = MonotonicClock.now()
        timeline = Timeline(frameRate: frameRate, sampleRate: audio?.audioFormat.sampleRate, limit: limit, start: now,
                            correctsDrift: stretcher != nil)
        lastProgress = now
        holdLimit = (Rational(2) * frameRate.reciprocal * Rational(Duration.nanosecondsPerSecond)).rounded
    }

    mutating func send(_ frame: VideoFrame, at slot: Int64) {
        for output in outputs { output.send(video: frame, frameIndex: slot) }
        lastFrame = frame
        sentIndex = slot
    }

    /// Sends the oldest held frames to `slots`, now final.
    mutating func release(_ slots: [Int64]) {
        for slot in slots { send(held.removeFirst(), at: slot) }
    }

    /// Sends every held frame: video has ended, the camera is about to change or the
    /// movie to pause, or no frame has come for a while.
    mutating func releaseHeld() {
        release(timeline.releaseHeldFrames())
    }

    /// Releases the held frames once video is done or the camera has gone quiet.
    mutating func releaseIfQuiet(now: Int64) {
        if timeline.isVideoDone || (!held.isEmpty && now - heldArrival > holdLimit) { releaseHeld() }
    }

    /// Places one event from the sources and offers it to the outputs.
    mutating func handle(_ event: CaptureEvent) {
        let arrival = MonotonicClock.now()
        switch event {
        case .video(let frame):
            place(frame, arrival: arrival)
        case .audio(let chunk):
            let placed = timeline.place(chunk, arrival: arrival)
            do {
                gate.hold(try stretcher.map { stretcher in try placed.flatMap { try stretcher.stretch($0) } } ?? placed)
            } catch {
                sourceFailure = sourceFailure ?? error
                timeline.stop(at: arrival)
            }
        case .sourceEnded(let kind, let error):
            // A vanished camera or microphone ends the movie where the video ends, with
            // both streams ending together, like a stop.
            let name = kind == .video ? video.displayName : audio?.displayName ?? "microphone"
            sourceFailure = sourceFailure ?? CaptureSessionError.sourceEnded(name, kind, error)
            timeline.stop(at: arrival)
        }
        // Audio follows video: it is offered only as far as the video has come.
        let videoEnd = timeline.isVideoDone && held.isEmpty ? timeline.videoEndInAudioFrames
            : timeline.audioPosition(ofFrame: sentIndex + 1)
        for piece in gate.release(upTo: videoEnd) {
            for output in outputs { output.send(audio: piece) }
        }
    }

    private mutating func place(_ frame: VideoFrame, arrival: Int64) {
        let previous = sentIndex
        let placement = timeline.place(frame, arrival: arrival)
        if placement.replacesNewestHeld { held.removeLast() }
        if let index = placement.index {
            if let request = switching {
                // The new camera's first frame: the slots since the old camera's last
                // hold that last picture, so the movie has no gap.
                if let lastFrame, index > previous + 1 {
                    for slot in (previous + 1)..<index { send(lastFrame, at: slot) }
                    timeline.fill(index - previous - 1)
                    switchFilled += index - previous - 1
                }
                request.finish(.success(Rational(index) * frameRate.reciprocal))
                switching = nil
            }
            held.append(frame)
            heldArrival = arrival
        }
        release(placement.released)
    }

    /// The progress to report at `now`, about twice a second; `nil` in between.
    mutating func progress(now: Int64, queue: CaptureQueue) -> SessionProgress? {
        guard now - lastProgress >= CaptureSession.progressInterval else { return nil }
        // Frames recorded: in the file or waiting for its encoder; not those the movie's
        // queue dropped (encoding behind), though the session placed them, nor those
        // held back until their slots are final.
        let written = timeline.videoFrames - movie.droppedVideoFrames - Int64(held.count)
        let rate = Double(written - framesAtLastProgress) * 1e9 / Double(now - lastProgress)
        let waiting = Int64(movie.waitingVideoFrames)
        lastProgress = now
        framesAtLastProgress = written
        return SessionProgress(elapsed: timeline.duration.doubleValue, videoFrames: written,
                               framesPerSecond: rate, bytes: movie.bytesWritten,
                               droppedFrames: timeline.droppedFrames + movie.droppedVideoFrames,
                               encodingBacklogFrames: waiting,
                               encodingBacklog: (Rational(waiting) * frameRate.reciprocal).doubleValue,
                               encodingDroppedFrames: min(Int64(queue.droppedVideoFrames), timeline.droppedFrames)
                                   + movie.droppedVideoFrames, isPaused: timeline.isPaused)
    }

    /// Swaps in the camera `request` brings, between two frames, or refuses once the
    /// movie is ending. What the old camera sent before it stopped goes first; if the
    /// new one cannot start, the old one records on (and if even it cannot start again,
    /// the recording ends as for a vanished camera).
    mutating func switchCamera(_ request: CameraSwitch, queue: CaptureQueue) {
        guard !timeline.isStopping else {
            request.finish(.failure(CaptureSessionError.notRunning))
            return
        }
        video.stop()
        // After this, every frame in the queue is the new camera's.
        while let event = queue.pop(timeout: 0) { handle(event) }
        releaseHeld()
        do {
            try request.camera.start(into: queue)
            video = request.camera
            timeline.cameraSwitched()
            switching = request
        } catch {
            do { try video.start(into: queue) } catch {
                sourceFailure = sourceFailure ?? CaptureSessionError.sourceEnded(video.displayName, .video, error)
                timeline.stop(at: MonotonicClock.now())
            }
            request.finish(.failure(error))
        }
    }

    /// The end of both streams, once capture has stopped: the last frame stays on screen
    /// for the slots the camera skipped before the limit (so the movie keeps real time),
    /// and audio ends where video ends (what was held past that is dropped, what is
    /// missing is silence). These wait for room in the outputs' queues rather than being
    /// dropped.
    ///
    /// - Returns: the frames repeated, and the silence put at the end, in audio frames.
    mutating func close() -> (repeated: Int64, closingSilence: Int64) {
        guard outputFailure == nil else { return (0, 0) }
        var repeated: Int64 = 0
        if let lastFrame {
            for index in (timeline.lastFrameIndex + 1)..<max(timeline.lastFrameIndex + 1, timeline.videoEnd) {
                for output in outputs { output.send(video: lastFrame, frameIndex: index, waitForRoom: true) }
                repeated += 1
            }
        }
        guard audio != nil else { return (repeated, 0) }
        // What the resampler still holds (its filter's delay) comes first.
        if let held = try? stretcher?.drain() { gate.hold(held) }
        var closing = gate.finish(at: timeline.finalAudioLength ?? timeline.videoEndInAudioFrames)
        var silence: Int64 = 0
        if let padding = timeline.closingSilence(format: audio?.audioFormat) {
            closing.append(padding)
            silence = Int64(padding.frameCount)
        }
        for piece in closing {
            for output in outputs { output.send(audio: piece, waitForRoom: true) }
        }
        return (repeated, silence)
    }

    /// Finishes every output at once, each on its own thread, and waits for all: an
    /// essential output's failure becomes the recording's; another's is left behind.
    ///
    /// - Returns: the outputs left behind, with why.
    mutating func finishOutputs() -> [String] {
        for output in outputs { output.finish() }
        var lost: [String] = []
        for output in outputs {
            let error = output.waitUntilFinished()
            lost += output.lostOutputs
            guard let error else { continue }
            if output.policy.isEssential {
                outputFailure = outputFailure ?? error
            } else {
                lost.append("\(output.outputName): \(error)")
            }
        }
        return lost
    }
}
