import Foundation
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
    /// The microphone; after it went and came back, the one opened again.
    var audio: (any AudioCaptureSource)?
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
    /// How a camera that goes away is waited for; `nil`: its loss ends the recording.
    let reconnection: CameraReconnection?
    /// The camera gone, while the session waits for it.
    var lost: DeviceLoss<any VideoCaptureSource>?
    /// Whether ``switching`` brings back a camera that was gone.
    var returning = false
    /// Slots that held the last picture while the camera was gone.
    var lostFilled: Int64 = 0
    /// The times the camera was gone, ended (back, given up, or the movie over); those
    /// `back` count its returns.
    var gaps: [DeviceGap] = []
    /// How a microphone that goes away is waited for; `nil`: its loss ends the recording.
    let microphoneReconnection: MicrophoneReconnection?
    /// The microphone gone, while the session waits for it.
    var microphoneLoss: DeviceLoss<any AudioCaptureSource>?
    /// Audio frames of silence that stood for the microphone while it was gone.
    var silenceFilled: Int64 = 0
    /// The times the microphone was gone, ended; those `back` count its returns.
    var microphoneGaps: [DeviceGap] = []
    /// The frames placed and held back until their slots are final (see
    /// `Timeline.place(_:arrival:)`), oldest first, when the newest arrived, and the
    /// slot of the newest sent.
    var held: [VideoFrame] = []
    var heldArrival: Int64 = 0
    var sentIndex: Int64 = -1
    /// Frames are held at most this long after the newest arrived
    /// (``Timeline/holdRelease`` frame periods).
    let holdLimit: Int64
    var lastSpaceCheck: Int64 = 0
    var lastProgress: Int64
    var framesAtLastProgress: Int64 = 0

    /// A device gone: since when (on CLOCK_MONOTONIC), why, and what tries to open it.
    struct DeviceLoss<Device: Sendable> {
        let name: String
        let since: Int64
        /// When it went, on the wall clock (for the report only).
        let wallClock: Date
        let reason: CaptureSessionError
        /// Why it went, in the log's words.
        let words: String
        var reconnector: DeviceReconnector<Device>

        /// Its gap in the recording, ended at `now`.
        func gap(endingAt now: Int64, back: Bool) -> DeviceGap {
            DeviceGap(start: wallClock, seconds: Double(now - since) / 1e9, back: back, reason: words)
        }

        /// What the wait for a lost device comes to at `now`, the same for the camera and
        /// the microphone.
        enum Step {
            /// The movie is ending: the wait ends with it.
            case ending
            /// The device opened again and `start` started it.
            case back(Device)
            /// It opened but did not start (gone again): it is tried again.
            case retrying
            /// The window is over.
            case gaveUp
            /// Still gone, within the window.
            case waiting
        }

        /// The next ``Step`` at `now`, trying to `start` a device that has opened again.
        mutating func step(now: Int64, ending: Bool, reconnection: DeviceReconnection<Device>,
                           start: (Device) throws -> Void) -> Step {
            if ending { return .ending }
            if let device = reconnector.take() {
                reconnector.cancel()
                do {
                    try start(device)
                } catch {
                    reconnector = DeviceReconnector(reconnection)
                    return .retrying
                }
                return .back(device)
            }
            return now - since > reconnection.window ? .gaveUp : .waiting
        }

        /// How long it has been gone at `now`, in seconds.
        func seconds(at now: Int64) -> Double { Double(now - since) / 1e9 }
    }

    init(outputs: [OutputConnection], movie: OutputConnection, stretcher: (any AudioStretching)?,
         video: any VideoCaptureSource, audio: (any AudioCaptureSource)?, frameRate: Rational, maxDuration: DurationLimit?,
         reconnection: CameraReconnection? = nil, microphoneReconnection: MicrophoneReconnection? = nil) {
        self.reconnection = reconnection
        self.microphoneReconnection = microphoneReconnection
        self.outputs = outputs
        self.movie = movie
        self.stretcher = stretcher
        self.video = video
        self.audio = audio
        self.frameRate = frameRate
        let now = MonotonicClock.now()
        timeline = Timeline(frameRate: frameRate, sampleRate: audio?.audioFormat.sampleRate, maxDuration: maxDuration, start: now,
                            correctsDrift: stretcher != nil)
        lastProgress = now
        holdLimit = (Rational(Timeline.holdRelease) * frameRate.reciprocal * Rational(Duration.nanosecondsPerSecond)).rounded
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

    /// What happened to the camera and the microphone since the session last asked
    /// (``takeEvents()``).
    var events: [ReconnectionEvent] = []

    /// The devices' comings and goings since the last call.
    mutating func takeEvents() -> [ReconnectionEvent] {
        defer { events = [] }
        return events
    }

    /// Places one event from the sources and offers it to the outputs.
    mutating func handle(_ event: CaptureEvent) {
        let arrival = MonotonicClock.now()
        switch event {
        case .video(let frame):
            place(frame, arrival: arrival)
        case .audio(let chunk):
            hold(timeline.place(chunk, arrival: arrival), at: arrival)
        case .sourceEnded(let kind, let error):
            let name = kind == .video ? video.displayName : audio?.displayName ?? "microphone"
            let failure = CaptureSessionError.sourceEnded(name, kind, error)
            if kind == .video, canWaitForCamera {
                loseCamera(failure, reason: error.map(Self.lossReason) ?? "it stopped", at: arrival)
            } else if kind == .audio, canWaitForMicrophone {
                loseMicrophone(failure, reason: error.map(Self.lossReason) ?? "it stopped", at: arrival)
            } else {
                // A vanished camera or microphone ends the movie where the video ends,
                // with both streams ending together, like a stop.
                sourceFailure = sourceFailure ?? failure
                timeline.stop(at: arrival)
            }
        }
        // Audio follows video: it is offered only as far as the video has come.
        let videoEnd = timeline.isVideoDone && held.isEmpty ? timeline.videoEndInAudioFrames
            : timeline.audioPosition(ofFrame: sentIndex + 1)
        for piece in gate.release(upTo: videoEnd) {
            for output in outputs { output.send(audio: piece) }
        }
    }

    /// Holds sound placed on the timeline until the picture reaches it, stretched to
    /// follow the microphone's drift first.
    mutating func hold(_ placed: [AudioChunk], at time: Int64) {
        do {
            gate.hold(try stretcher.map { stretcher in try placed.flatMap { try stretcher.stretch($0) } } ?? placed)
        } catch {
            sourceFailure = sourceFailure ?? error
            timeline.stop(at: time)
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
                    if returning { lostFilled += index - previous - 1 } else { switchFilled += index - previous - 1 }
                }
                returning = false
                request.finish(.success(Rational(index) * frameRate.reciprocal))
                switching = nil
            }
            held.append(frame)
            heldArrival = arrival
        }
        release(placement.released)
    }

    /// Whether a camera that goes now is waited for: `--reconnect` asked for, the movie
    /// not ending, and no camera already gone.
    var canWaitForCamera: Bool {
        reconnection != nil && lost == nil && !timeline.isStopping
    }

    /// Why a camera went, for the line that says it is gone: a device's own words
    /// without its name, which that line gives already.
    static func lossReason(_ error: any Error) -> String {
        if case let DeviceError.stopped(_, reason) = error { return reason }
        return "\(error)"
    }

    /// The camera has gone (`failure`, for the end report if it does not come back):
    /// what it sent goes out, it is closed (so that the device can come back under the
    /// same node), and a ``DeviceReconnector`` tries to open it again. Sound goes on
    /// being placed and waits, as always, for the picture to catch up.
    mutating func loseCamera(_ failure: CaptureSessionError, reason: String, at time: Int64) {
        let name = video.displayName
        video.stop()
        releaseHeld()
        switching?.finish(.failure(failure))
        switching = nil
        returning = false
        video = NoCamera()
        lost = DeviceLoss(name: name, since: time, wallClock: Date(), reason: failure, words: reason,
                          reconnector: DeviceReconnector(reconnection!))
        events.append(.lost(.video, device: name, reason: reason))
    }

    /// While the camera is gone: holds its last picture in the slots that pass, starts
    /// the camera once it opens again, on the same timeline (its first frame's slot
    /// found as after a switch), or gives up when the window is over (the movie ends
    /// there) or the movie is ending.
    mutating func checkLostCamera(now: Int64, queue: CaptureQueue) {
        guard var loss = lost, let reconnection else { return }
        let step = loss.step(now: now, ending: timeline.isStopping || timeline.isVideoDone, reconnection: reconnection) {
            try $0.start(into: queue)
        }
        lost = loss
        switch step {
        case .ending:
            endLoss(at: now, back: false)
        case .back(let camera):
            video = camera
            timeline.cameraReturned(at: now)
            switching = CameraSwitch(camera: camera)
            returning = true
            endLoss(at: now, back: true)
            events.append(.back(.video, device: camera.displayName, after: loss.seconds(at: now)))
        case .retrying:
            break
        case .gaveUp:
            endLoss(at: now, back: false)
            gaveUp(.video, loss, at: now)
        case .waiting:
            guard let lastFrame, let slots = timeline.holdPicture(until: now) else { return }
            // The movie goes on meanwhile, in real time: its last picture, the sound,
            // segments and the limit.
            for slot in slots { send(lastFrame, at: slot) }
            lostFilled += Int64(slots.count)
        }
    }

    /// A device that did not come back in time: said, and the movie ends at `now` with
    /// the device's failure.
    mutating func gaveUp<Device>(_ kind: MediaKind, _ loss: DeviceLoss<Device>, at now: Int64) {
        events.append(.gaveUp(kind, device: loss.name, after: loss.seconds(at: now),
                              lastTry: loss.reconnector.lastFailure.map { "\($0)" }))
        sourceFailure = sourceFailure ?? loss.reason
        timeline.stop(at: now)
    }

    mutating func endLoss(at now: Int64, back: Bool) {
        guard let loss = lost else { return }
        loss.reconnector.cancel()
        gaps.append(loss.gap(endingAt: now, back: back))
        lost = nil
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
        var progress = SessionProgress(elapsed: timeline.duration.doubleValue, videoFrames: written,
                               framesPerSecond: rate, bytes: movie.bytesWritten,
                               droppedFrames: timeline.droppedFrames + movie.droppedVideoFrames,
                               encodingBacklogFrames: waiting,
                               encodingBacklog: (Rational(waiting) * frameRate.reciprocal).doubleValue,
                               encodingDroppedFrames: min(Int64(queue.droppedVideoFrames), timeline.droppedFrames)
                                   + movie.droppedVideoFrames, isPaused: timeline.isPaused)
        progress.cameraGone = lost.map { Double(now - $0.since) / 1e9 }
        progress.microphoneGone = microphoneLoss.map { Double(now - $0.since) / 1e9 }
        return progress
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
        let wasLost = lost
        if let loss = lost {
            // Another camera asked for while this one is gone: it is no longer waited for.
            loss.reconnector.cancel()
            lost = nil
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
            if let loss = wasLost {
                // The camera that went is replaced: its gap ends here.
                lost = loss
                endLoss(at: MonotonicClock.now(), back: false)
            }
        } catch {
            if var loss = wasLost, let reconnection {
                // The camera that went is waited for again.
                loss.reconnector = DeviceReconnector(reconnection)
                lost = loss
            } else {
                do { try video.start(into: queue) } catch {
                    sourceFailure = sourceFailure ?? CaptureSessionError.sourceEnded(video.displayName, .video, error)
                    timeline.stop(at: MonotonicClock.now())
                }
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
