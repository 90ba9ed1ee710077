import VidrecMedia

/// Places captured frames and audio on the movie's timeline: the capture session's
/// timing rules, kept free of threads and devices so they can be tested directly.
///
/// All times are capture times in nanoseconds on CLOCK_MONOTONIC; positions are frame
/// indexes (time base `1/frameRate`) and audio frame counts (time base `1/sampleRate`).
public struct Timeline: Sendable {
    /// How far (in seconds) audio may stray, on average, from its timestamps before the
    /// drift correction starts: the audio is then resampled (see ``AudioStretching``) a
    /// little faster or slower until it is back within a quarter of this. Under one video
    /// frame; jitter is averaged out first.
    public static let audioSyncTolerance = Rational(2, 100)
    /// The most the drift correction changes the audio's rate: one frame in this many
    /// (0.5 %, far below what an ear notices; microphone clocks are off by 0.01–0.3 %).
    public static let maximumStretchRatio = 200
    /// The weight of each period's offset in the moving average that smooths jitter out
    /// of the drift estimate (about the last 20 periods count).
    public static let driftSmoothing = 0.05
    /// A jump in audio timestamps larger than this (in seconds) is lost samples (an
    /// overrun), filled with silence at once rather than averaged.
    public static let audioGapThreshold = Rational(1, 10)
    /// How long (in seconds) from the sound's start a misplaced start is still moved at
    /// once (see ``startTolerance``).
    public static let startCheckDuration = Rational(10)
    /// How far (in seconds) the sound may sit from its timestamps, steadily, over the
    /// sound's first seconds: further, its start was dated wrong (PulseAudio's latency
    /// reports can be 100–190 ms off while a stream starts on a loaded machine, and come
    /// right over seconds), as drift cannot move it that far so soon (the drift correction
    /// keeps a microphone clock's drift within ``audioSyncTolerance``). The start is then
    /// moved at once, by silence inserted or sound left out, rather than stretched at
    /// 0.5 %, which would take 20 s to mend 100 ms. Twice the drift correction's
    /// tolerance.
    public static let startTolerance = Rational(4, 100)
    /// How many periods' offsets are weighed to find a misplaced start: three in four
    /// must be beyond ``startTolerance``, so that jitter and stray timestamps cannot
    /// move it, and it is moved by their median.
    public static let startCheckPeriods = 12
    /// How late (in frames) a frame may be for the next slot and still take it: capture
    /// timestamps jitter, and rounding alone would turn a late frame into a false gap
    /// followed by a collision.
    public static let jitterTolerance = Rational(3, 4)
    /// How long to wait, after video has ended, for audio to reach the same time.
    public static let audioGrace: Int64 = CaptureTiming.audioGrace.nanoseconds

    /// Output frames per second.
    public let frameRate: Rational
    /// The microphone's sample rate, or `nil` for a silent movie.
    public let sampleRate: Int?

    /// Capture time of the first video frame: t = 0.
    public private(set) var origin: Int64?
    /// Video frames placed.
    public private(set) var videoFrames: Int64 = 0
    /// Frame slots left empty because the camera skipped frames.
    public private(set) var droppedFrames: Int64 = 0
    /// Frames left out for want of a free slot: the camera delivered more frames than
    /// the movie's rate holds (a camera faster than the movie, a first frame that came
    /// late and made the next ones look early, a burst longer than ``holdDepth``).
    public private(set) var surplusFrames: Int64 = 0
    /// Frames the device says it skipped: jumps in its sequence numbers (V4L2's
    /// `v4l2_buffer.sequence`), counted from the first frame on.
    public private(set) var sequenceGaps: Int64 = 0
    /// Audio frames placed (including inserted silence).
    public var audioWritten: Int64 { audio.written }
    /// Audio frames of silence inserted for gaps.
    public var insertedSilence: Int64 { audio.insertedSilence }
    /// Audio frames dropped because the microphone's timestamps jumped back.
    public var droppedAudio: Int64 { audio.dropped }
    /// Audio frames the drift correction added (positive: the microphone's clock runs
    /// slow) or removed (negative: it runs fast), in all.
    public var stretchedAudio: Int64 { audio.stretched }
    /// Audio frames the sound was moved by, in its first seconds, because its start was
    /// dated wrong (``startTolerance``): silence inserted (positive) or sound left out
    /// (negative).
    public var movedStart: Int64 { audio.movedStart }
    /// Whether drift is corrected by stretching audio (the session has a resampler).
    public var correctsDrift: Bool { audio.correctsDrift }
    /// Where the sound goes once the movie's time 0 is known.
    private var audio: AudioPlacement
    /// Whether the end came from the duration limit.
    public private(set) var reachedLimit = false
    /// Whether a stop was requested.
    public private(set) var isStopping = false

    private var lastIndex: Int64 = -1
    /// The frames held back by ``place(_:arrival:)``, oldest first: their slots, which
    /// may still move back, and where their timestamps put them, in frames.
    private var held: [(index: Int64, position: Rational)] = []
    /// The slot of the newest frame released: slots up to it are final.
    private var releasedIndex: Int64 = -1
    /// Nanoseconds added to video capture times: after a camera switch, the new camera's
    /// frames are moved (by under a frame) onto the movie's slot grid.
    private var videoShift: Int64 = 0
    /// Whether the next frame placed is a new camera's first (``cameraSwitched()``).
    private var rephase = false
    private var lastSequence: UInt64?
    private var endFrame: Int64?
    /// Sound captured before the first frame, or since a resume before the first frame
    /// after it: placed once that frame says where the movie (or the pause) starts.
    private var pendingAudio: [AudioChunk] = []
    private var videoDone = false
    private var audioDone = false
    private var audioDeadline: Int64?
    private var lastVideoArrival: Int64
    private var lastAudioArrival: Int64
    /// Paused from this capture time on (``pause(at:)``).
    private var pausedAt: Int64?
    /// Resumed at this capture time, until the first frame captured since (``resume(at:)``).
    private var resumedAt: Int64?
    /// Frames and audio captured while paused: left out, neither recorded nor dropped.
    public private(set) var pausedFrames: Int64 = 0
    /// The capture time of the newest frame seen (also one left out while paused).
    public private(set) var newestFrameTime: Int64?

    /// Creates a timeline; `start` is when capture started (for stall detection).
    ///
    /// - Parameter correctsDrift: mark audio to be stretched when the microphone's clock
    ///   drifts (the session resamples it); otherwise drift is left as it is.
    public init(frameRate: Rational, sampleRate: Int?, maxDuration: DurationLimit?, start: Int64, correctsDrift: Bool = true) {
        audio = AudioPlacement(correctsDrift: correctsDrift)
        self.frameRate = frameRate
        self.sampleRate = sampleRate
        endFrame = maxDuration?.videoFrames(at: frameRate)
        lastVideoArrival = start
        lastAudioArrival = start
        audioDone = sampleRate == nil
    }

    /// The video stream's duration so far: slots up to the last frame placed.
    public var duration: Rational { Rational(videoEnd) * frameRate.reciprocal }

    /// The index of the newest frame placed (-1 before the first).
    public var lastFrameIndex: Int64 { lastIndex }

    /// Where the video ends, in frames: after the last frame placed, or, when the limit
    /// was reached and the camera skipped the last slots, at the limit (the last frame
    /// then lasts until it, so the movie keeps real time).
    public var videoEnd: Int64 {
        guard lastIndex >= 0 else { return 0 }
        return videoDone ? max(lastIndex + 1, endFrame ?? 0) : lastIndex + 1
    }

    /// Where the video placed so far ends, as an audio position: audio may be written up
    /// to here (see ``AudioGate``). 0 for a silent movie.
    public var videoEndInAudioFrames: Int64 { audioPosition(ofFrame: videoEnd) }

    /// The audio's final length in audio frames, once the video's end is known.
    public var finalAudioLength: Int64? { audioEnd }

    /// The audio frame count at which audio ends, once the video end is known.
    private var audioEnd: Int64? {
        guard let endFrame, sampleRate != nil else { return nil }
        return audioPosition(ofFrame: endFrame)
    }

    /// Where `frame` goes, and where earlier frames, held back until now, finally go.
    ///
    /// Frames are held back for up to ``holdDepth`` slots (see ``FramePlacement``):
    /// a frame that came late enough to leave a hole before its slot moves back into
    /// that hole when a later frame claims the same slot (a feeder or a loaded machine
    /// delivers frames late and then in a burst; with slots fixed at arrival, every
    /// frame of the burst but the first was lost). A frame that comes early for the
    /// next free slot takes it when the slot before is taken (a camera whose first
    /// frame came late makes every later frame look early); a held frame that took a
    /// slot for being early gives it up to a frame on time for it. Frames that still
    /// collide (more frames than slots: a camera faster than the movie) are left out;
    /// an H.264 frame, which the frames after it need, is left out only when it is
    /// more than ``holdDepth`` slots early, and never gives its slot up.
    public mutating func place(_ frame: VideoFrame, arrival: Int64) -> FramePlacement {
        lastVideoArrival = arrival
        newestFrameTime = max(newestFrameTime ?? frame.captureTime, frame.captureTime)
        guard !videoDone else { return FramePlacement(released: releaseHeldFrames()) }
        guard isRecorded(frame) else {
            pausedFrames += 1
            return FramePlacement()
        }
        if let lastSequence, frame.sequence > lastSequence + 1 { sequenceGaps += Int64(frame.sequence - lastSequence - 1) }
        lastSequence = frame.sequence
        if origin == nil { origin = frame.captureTime }
        let position = slotPosition(of: frame.captureTime)
        var placement = FramePlacement()
        guard let index = freeSlot(for: frame, at: position, placement: &placement) else { return placement }
        if let endFrame, index >= endFrame {
            // The camera skipped the last slots before the end: they count as dropped.
            droppedFrames += max(0, endFrame - lastIndex - 1)
            finishVideo(arrival: arrival)
            placement.released = releaseHeldFrames()
            return placement
        }
        if rephase {
            // A new camera's frames fall anywhere within the slots: half a frame off, its
            // timestamps' jitter (4 ms steps where the kernel ticks at 250 Hz) would
            // make some of them land a slot late and leave a false gap. From its first
            // frame on, it is placed as if that frame had come exactly on its slot.
            let offset = (Double(index) - position.doubleValue) / frameRate.doubleValue
            videoShift += Int64((offset * Double(Duration.nanosecondsPerSecond)).rounded())
            rephase = false
        }
        droppedFrames += index - lastIndex - 1
        lastIndex = index
        held.append((index, position))
        videoFrames += 1
        placement.index = index
        if let endFrame, index == endFrame - 1 {
            finishVideo(arrival: arrival)
            placement.released = releaseHeldFrames()
        } else {
            placement.released = releaseHeldFrames(upTo: index - Timeline.holdDepth)
        }
        return placement
    }

    /// Whether `frame` is recorded rather than left out for a pause: captured before the
    /// pause, or the first since the resume (which moves the movie's time 0 on) or after.
    private mutating func isRecorded(_ frame: VideoFrame) -> Bool {
        if let pausedAt, frame.captureTime >= pausedAt { return false }
        if let resumedAt {
            guard frame.captureTime >= resumedAt else { return false }
            continueAfterPause(with: frame)
        }
        return true
    }

    /// Where capture time `time` falls on the movie's slots, in frames from time 0.
    private func slotPosition(of time: Int64) -> Rational {
        Rational(approximating: Int128(time + videoShift - origin!) * Int128(frameRate.numerator),
                 Int128(Duration.nanosecondsPerSecond) * Int128(frameRate.denominator))
    }

    /// The slot for `frame`, whose timestamp puts it at `position`: the nearest, but a
    /// frame up to ``jitterTolerance`` late for the next slot takes that slot (a real gap
    /// is a whole frame or more). When that slot is taken, the rules of
    /// ``place(_:arrival:)`` give it the next one, or leave it out (`nil`; counted, and
    /// `placement` says so when it took the newest held frame's slot instead).
    private mutating func freeSlot(for frame: VideoFrame, at position: Rational, placement: inout FramePlacement) -> Int64? {
        let next = Rational(lastIndex + 1)
        let late = position > next && position.subtracting(next) <= Timeline.jitterTolerance
        let index = late ? lastIndex + 1 : position.rounded
        guard index <= lastIndex, lastIndex >= 0 else { return index }
        if position >= Rational(lastIndex).subtracting(Rational(1, 2)), let hole = holeBehindHeldFrames() {
            // Held frames left a hole and this one claims the newest slot: they were
            // late, and each moves back one slot, closing the hole.
            for i in held.indices where held[i].index > hole { held[i].index -= 1 }
            droppedFrames -= 1
            lastIndex -= 1
            return lastIndex + 1
        }
        if next.subtracting(position) <= Timeline.jitterTolerance {
            // Early for the next slot, and the slot before is taken.
            return lastIndex + 1
        }
        if frame.pixelFormat == .h264, next.subtracting(position) <= Rational(Timeline.holdDepth) {
            // An H.264 frame is the reference of every frame after it up to the next
            // keyframe: left out, it would take them all with it (a second or more).
            // Early by up to the hold depth, it takes the next free slot instead.
            return lastIndex + 1
        }
        surplusFrames += 1
        if frame.pixelFormat != .h264, let newest = held.last, newest.index == lastIndex, index == lastIndex,
           Self.distance(position, lastIndex) < Self.distance(newest.position, lastIndex) {
            // The newest held frame took this slot for being early; this one is on time
            // for it: it takes the slot, and the held frame is left out.
            held[held.count - 1].position = position
            placement.replacesNewestHeld = true
            placement.index = lastIndex
        }
        return nil
    }

    /// Pauses the movie (``CaptureSession/pause()``): frames captured from `time` on are
    /// left out until ``resume(at:)``, and audio once it reaches the end of the last
    /// frame's slot; the movie's duration, and with it
    /// the limit, counts only what was recorded. Held frames stay held (release them).
    public mutating func pause(at time: Int64) {
        guard pausedAt == nil, !isStopping else { return }
        if resumedAt != nil {
            // Resumed and paused again before a frame came: still the same pause.
            resumedAt = nil
        }
        pausedAt = time
    }

    /// Resumes a paused movie from capture time `time`: the first frame captured since
    /// takes the slot after the last one, as if it had come exactly then, and the audio
    /// goes on from where the video goes on, trimmed or padded there as at the start, so
    /// that neither stream has a gap or a jump.
    public mutating func resume(at time: Int64) {
        guard pausedAt != nil else { return }
        pausedAt = nil
        resumedAt = time
    }

    /// Whether the movie is paused (and not yet going on).
    public var isPaused: Bool { pausedAt != nil || resumedAt != nil }

    /// The first frame after a pause: the movie's time 0 moves on by the pause, so that
    /// this frame lands on the next slot; audio starts afresh against it.
    private mutating func continueAfterPause(with frame: VideoFrame) {
        resumedAt = nil
        lastSequence = nil
        guard origin != nil, lastIndex >= 0 else { return }
        let next = (Rational(lastIndex + 1) * frameRate.reciprocal * Rational(Duration.nanosecondsPerSecond)).rounded
        origin = frame.captureTime + videoShift - next
        // Audio captured before this frame overlaps what was written: it is trimmed.
        audio.restart()
    }

    /// How many slots a frame is held back at most (see ``place(_:arrival:)``): the
    /// longest burst after which every frame still finds its slot, and the delay (in
    /// frames) it adds before the outputs see a frame.
    public static let holdDepth: Int64 = 4

    /// How many frame periods after the newest frame arrived the held frames are
    /// released at the latest: a camera that goes quiet does not keep its last frames
    /// from the outputs.
    public static let holdRelease: Int64 = 2

    /// The newest empty slot among the held frames (or just before the oldest), when
    /// every held frame after it may move back a slot: none would then show more than
    /// ``holdDepth`` frames before its timestamp.
    private func holeBehindHeldFrames() -> Int64? {
        guard let oldest = held.first else { return nil }
        var slot = lastIndex - 1
        var k = held.count - 2
        while slot > releasedIndex, slot >= oldest.index - 1 {
            if k >= 0, held[k].index == slot { slot -= 1; k -= 1; continue }
            let plausible = held.allSatisfy { $0.index <= slot || $0.position.subtracting(Rational($0.index - 1)) <= Rational(Timeline.holdDepth) }
            return plausible ? slot : nil
        }
        return nil
    }

    /// How far `position` is from slot `index`, in frames.
    private static func distance(_ position: Rational, _ index: Int64) -> Rational {
        let slot = Rational(index)
        return position < slot ? slot.subtracting(position) : position.subtracting(slot)
    }

    /// Releases the frames held by ``place(_:arrival:)`` (all of them, or those up to
    /// slot `last`): their slots are final. Called when video has ended
    /// (``isVideoDone``), before a camera switch, and when no frame has come for a
    /// while. Returns their slots, oldest first.
    public mutating func releaseHeldFrames(upTo last: Int64 = .max) -> [Int64] {
        var released: [Int64] = []
        while let oldest = held.first, oldest.index <= last {
            released.append(oldest.index)
            releasedIndex = oldest.index
            held.removeFirst()
        }
        return released
    }

    /// Whether video has ended (the limit, a stop): no frame is placed after this, and
    /// the held frames, up to ``holdDepth`` of them, are to be released.
    public var isVideoDone: Bool { videoDone }

    /// Where video frame `index` starts, as an audio position (0 for a silent movie).
    public func audioPosition(ofFrame index: Int64) -> Int64 {
        guard let sampleRate else { return 0 }
        return (Rational(index) * frameRate.reciprocal * Rational(Int64(sampleRate))).rounded
    }

    /// The camera was switched (``CaptureSession/switchCamera(to:)``): the next frame
    /// comes from another device, whose sequence numbers start afresh, and whose frames
    /// are moved onto the movie's slots by where its first frame lands (by under a
    /// frame: up to half a frame early or three quarters late against the audio).
    /// (A first frame captured within the old camera's last slot is left out, as any
    /// frame in a slot already taken: the next one takes the next slot.)
    public mutating func cameraSwitched() {
        lastSequence = nil
        rephase = true
    }

    /// The camera came back at `now` after it had gone (``CameraReconnection``): its
    /// frames are placed as a switched camera's, and it has until the stall timeout from
    /// now to send its first.
    public mutating func cameraReturned(at now: Int64) {
        cameraSwitched()
        lastVideoArrival = now
    }

    /// While the camera is gone: the slots that have passed by `now` with no frame in
    /// them, up to the one before the slot `now` falls in (a camera that comes back
    /// places its first frame after that), taken for a repeat of the last picture, so
    /// that the movie, its sound and its limit go on in real time. `nil` when there are
    /// none, before the first frame, while paused and once video is done; the slot
    /// before ``place(_:arrival:)``'s end frame ends the video as a frame there would.
    public mutating func holdPicture(until now: Int64) -> ClosedRange<Int64>? {
        guard origin != nil, !videoDone, !isPaused, held.isEmpty else { return nil }
        var last = slotPosition(of: now).floor - 1
        if let endFrame { last = min(last, endFrame - 1) }
        guard last > lastIndex else { return nil }
        let slots = (lastIndex + 1)...last
        lastIndex = last
        releasedIndex = last
        videoFrames += Int64(slots.count)
        if let endFrame, last == endFrame - 1 { finishVideo(arrival: now) }
        return slots
    }

    /// How far behind the present the silence for a microphone that is gone is written
    /// (``holdSilence(until:format:)``), in nanoseconds: the microphone's sound, once
    /// back, is captured after this and so follows the silence with a gap, never an
    /// overlap.
    public static let silenceLag: Int64 = 200_000_000

    /// While the microphone is gone: silence for the sound up to ``silenceLag`` before
    /// `now`, so that the movie's sound, its segments and its end go on in real time;
    /// `nil` when there is none to add, before the first frame, while paused and once
    /// the sound is done. The microphone counts as heard (no stall while it is waited
    /// for).
    public mutating func holdSilence(until now: Int64, format: AudioFormat) -> AudioChunk? {
        guard let sampleRate, let origin, !audioDone, !isPaused else { return nil }
        lastAudioArrival = now
        let time = now - Timeline.silenceLag - origin
        var target = (Rational(time, Duration.nanosecondsPerSecond) * Rational(Int64(sampleRate))).rounded
        if let audioEnd { target = min(target, audioEnd) }
        let missing = target - audioWritten
        guard missing > 0 else { return nil }
        let start = origin + (Rational(audioWritten, Int64(sampleRate)) * Rational(Duration.nanosecondsPerSecond)).rounded
        audio.markWritten(upTo: target)
        if let audioEnd, target >= audioEnd { audioDone = true }
        return .silence(format: format, frameCount: Int(missing), captureTime: start)
    }

    /// The microphone came back at `now` after it had gone (``MicrophoneReconnection``):
    /// its sound starts afresh against the movie's time 0, trimmed or padded where it
    /// meets the silence, and it has until the stall timeout from now to send.
    public mutating func microphoneReturned(at now: Int64) {
        audio.restart()
        lastAudioArrival = now
    }

    /// `count` empty slots just before the last frame placed were filled with a repeat
    /// (after a camera switch): they are frames, not drops.
    public mutating func fill(_ count: Int64) {
        releasedIndex = max(releasedIndex, lastIndex - 1)
        droppedFrames -= count
        videoFrames += count
    }

    private mutating func finishVideo(arrival: Int64) {
        if !isStopping { reachedLimit = true }
        videoDone = true
        audioDeadline = arrival + Timeline.audioGrace
        if let audioEnd, audioWritten >= audioEnd { audioDone = true }
    }

    /// Where `chunk` goes: the pieces to append, in order (silence first where the
    /// microphone's stream has a gap); empty before the first video frame and after the
    /// end. Audio that arrives before the first video frame is held and released by the
    /// next call after it.
    public mutating func place(_ chunk: AudioChunk, arrival: Int64) -> [AudioChunk] {
        lastAudioArrival = arrival
        guard sampleRate != nil, !audioDone else { return [] }
        // While paused, audio goes on until it reaches where the video stopped (the end
        // of its last frame's slot), so that the movie's sound has no gap there.
        if let pausedAt, chunk.captureTime >= pausedAt, audioWritten >= audioPosition(ofFrame: lastIndex + 1) { return [] }
        if let resumedAt {
            // Held until the first frame after the pause says where the movie goes on.
            guard chunk.captureTime >= resumedAt else { return [] }
            pendingAudio.append(chunk)
            return []
        }
        guard origin != nil else {
            pendingAudio.append(chunk)
            // Keep at most two seconds of audio from before the first frame.
            let oldest = chunk.captureTime - 2_000_000_000
            pendingAudio.removeAll { $0.captureTime < oldest }
            return []
        }
        let held = pendingAudio
        pendingAudio = []
        return (held + [chunk]).flatMap { placeAfterOrigin($0) }
    }

    private mutating func placeAfterOrigin(_ chunk: AudioChunk) -> [AudioChunk] {
        guard !audioDone else { return [] }
        let placed = audio.place(chunk, origin: origin!, end: audioEnd)
        if let audioEnd, audio.written >= audioEnd { audioDone = true }
        return placed
    }

    /// Ends the movie after the newest frame; audio ends at the same time.
    public mutating func stop(at now: Int64) {
        isStopping = true
        endFrame = min(endFrame ?? .max, lastIndex + 1)
        if !videoDone { finishVideo(arrival: now) }
        if lastIndex < 0 { audioDone = true }
    }

    /// Whether everything has been placed (or audio's grace time is over).
    public func isComplete(now: Int64) -> Bool {
        guard videoDone else { return false }
        return audioDone || now >= (audioDeadline ?? .max)
    }

    /// The source that has sent nothing for `timeout` nanoseconds while still needed.
    public func stalledSource(now: Int64, timeout: Int64) -> MediaKind? {
        if !videoDone, now - lastVideoArrival > timeout { return .video }
        if !audioDone, !videoDone, now - lastAudioArrival > timeout { return .audio }
        return nil
    }

    /// Silence to append so that audio lasts exactly as long as video, when the
    /// microphone fell short; `nil` when nothing is missing.
    public mutating func closingSilence(format: AudioFormat?) -> AudioChunk? {
        guard let format, let audioEnd, lastIndex >= 0, audioWritten < audioEnd else { return nil }
        let missing = audioEnd - audioWritten
        audio.markWritten(upTo: audioEnd)
        audioDone = true
        return .silence(format: format, frameCount: Int(missing), captureTime: origin ?? 0)
    }
}
