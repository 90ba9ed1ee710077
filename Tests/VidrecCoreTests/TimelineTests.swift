import Testing
import VidrecCore
import VidrecMedia

/// The capture session's timing rules, fed synthetic frames and audio periods.
@Suite struct TimelineTests {
    static let second: Int64 = 1_000_000_000
    static let start: Int64 = 1_000 * second
    static let mono = AudioFormat(sampleFormat: .s16, sampleRate: 48000, channels: 1)

    func frame(at time: Int64, sequence: UInt64 = 0, format: PixelFormat = .yuyv) -> VideoFrame {
        VideoFrame(pixelFormat: format, width: 2, height: 2, buffer: FrameBuffer(count: 8), byteCount: 8,
                   strides: [4], captureTime: time, sequence: sequence, isKeyframe: format != .h264)
    }

    /// Feeds frames to a timeline as the capture session does: frames are held until a
    /// placement says where they finally go, and released when video ends.
    struct Feed {
        var timeline: Timeline
        /// The frames written, by number, and their final slots, in the order written.
        var written: [(frame: Int, slot: Int64)] = []
        private var held: [Int] = []

        init(_ timeline: Timeline) { self.timeline = timeline }

        var slots: [Int64] { written.map(\.slot) }

        mutating func place(_ frame: VideoFrame, number: Int, arrival: Int64) {
            let placement = timeline.place(frame, arrival: arrival)
            if placement.replacesNewestHeld { held.removeLast() }
            if placement.index != nil { held.append(number) }
            write(placement.released)
            if timeline.isVideoDone { release() }
        }

        mutating func release() { write(timeline.releaseHeldFrames()) }

        private mutating func write(_ slots: [Int64]) {
            for slot in slots { written.append((held.removeFirst(), slot)) }
        }
    }

    func chunk(at time: Int64, frames: Int = 480) -> AudioChunk {
        .silence(format: TimelineTests.mono, frameCount: frames, captureTime: time)
    }

    @Test func maxDurationCutsAtExactlyRoundedFrameCount() {
        var feed = Feed(Timeline(frameRate: Rational(30), sampleRate: nil, maxDuration: DurationLimit(parsing: "3"), start: Self.start))
        for n in 0..<120 {
            let t = Self.start + Int64(n) * Self.second / 30
            feed.place(frame(at: t), number: n, arrival: t)
        }
        let timeline = feed.timeline
        #expect(feed.slots == Array(0..<90))
        #expect(timeline.reachedLimit)
        #expect(timeline.isComplete(now: Self.start + 4 * Self.second))
        #expect(timeline.duration == Rational(3))
    }

    @Test func droppedCameraFramesLeaveGapsSoTheMovieKeepsRealTime() {
        var feed = Feed(Timeline(frameRate: Rational(30), sampleRate: nil, maxDuration: nil, start: Self.start))
        for n in [0, 1, 2, 5, 6, 9] {
            let t = Self.start + Int64(n) * Self.second / 30 + 1_000_000  // 1 ms of jitter
            feed.place(frame(at: t), number: n, arrival: t)
        }
        feed.release()
        let timeline = feed.timeline
        #expect(feed.slots == [0, 1, 2, 5, 6, 9])
        #expect(timeline.droppedFrames == 4)
        #expect(timeline.sequenceGaps == 0, "these frames all carry sequence 0")
        #expect(timeline.duration == Rational(10, 30))
    }

    @Test func timestampJitterDoesNotInventGapsButRealDropsStillShow() {
        var feed = Feed(Timeline(frameRate: Rational(30), sampleRate: nil, maxDuration: nil, start: Self.start))
        let period = Self.second / 30
        // Frame 1 arrives 60 % of a period late, frame 2 on time: no gap, no collision.
        // Frame 3 is lost; frame 4 is on time.
        for (n, offset) in [Int64(0), period * 16 / 10, 2 * period, 4 * period].enumerated() {
            feed.place(frame(at: Self.start + offset), number: n, arrival: Self.start)
        }
        feed.release()
        #expect(feed.slots == [0, 1, 2, 4])
        #expect(feed.timeline.droppedFrames == 1)
    }

    @Test func aFasterCameraNeverRunsAheadOfRealTime() {
        // 40 fps into a 30 fps movie: a quarter of the frames are surplus.
        var feed = Feed(Timeline(frameRate: Rational(30), sampleRate: nil, maxDuration: nil, start: Self.start))
        for n in 0..<400 {
            let t = Self.start + Int64(n) * Self.second / 40
            feed.place(frame(at: t), number: n, arrival: t)
        }
        feed.release()
        for (n, index) in feed.written {
            let real = Double(n) / 40 * 30
            #expect(abs(Double(index) - real) <= 0.75 + 1e-9, "frame \(n) at slot \(index), real time \(real)")
        }
        #expect(feed.slots == feed.slots.sorted() && Set(feed.slots).count == feed.slots.count, "each slot once, in order")
        #expect(feed.timeline.videoFrames >= 290 && (feed.slots.last ?? 0) >= 298)
        #expect(feed.timeline.videoFrames + feed.timeline.surplusFrames == 400, "every frame written or counted as surplus")
    }

    @Test func slotsSkippedJustBeforeTheLimitCountAsDropped() {
        var timeline = Timeline(frameRate: Rational(30), sampleRate: nil, maxDuration: DurationLimit(parsing: "1"), start: Self.start)
        for n in Array(0..<28) + [31] {
            _ = timeline.place(frame(at: Self.start + Int64(n) * Self.second / 30), arrival: Self.start)
        }
        #expect(timeline.videoFrames == 28)
        #expect(timeline.videoFrames + timeline.droppedFrames == 30)
        #expect(timeline.reachedLimit)
        #expect(timeline.duration == Rational(1), "the last frame lasts until the limit")
    }

    @Test func sequenceNumberJumpsAreCountedAsFramesTheDeviceSkipped() {
        var timeline = Timeline(frameRate: Rational(30), sampleRate: nil, maxDuration: nil, start: Self.start)
        for (n, sequence) in [(0, 100), (1, 101), (4, 104), (5, 105)] {
            _ = timeline.place(frame(at: Self.start + Int64(n) * Self.second / 30, sequence: UInt64(sequence)), arrival: Self.start)
        }
        #expect(timeline.sequenceGaps == 2)
        #expect(timeline.droppedFrames == 2)
    }

    /// After a camera switch the new camera's frames fall anywhere within the slots (here
    /// 60 % of a frame late); with its timestamps' jitter on top (vivid's come in 4 ms
    /// steps), one of them would be more than ``Timeline/jitterTolerance`` late and
    /// leave a false gap. Its frames are placed from where its first frame landed.
    @Test(arguments: [Int64(6), 4, -3])
    func aSwitchedCameraOffTheSlotGridLeavesNoFalseGapButARealOneShows(phaseTenths: Int64) {
        var feed = Feed(Timeline(frameRate: Rational(30), sampleRate: nil, maxDuration: nil, start: Self.start))
        let period = Self.second / 30
        for n in 0..<10 {
            let t = Self.start + Int64(n) * period
            feed.place(frame(at: t, sequence: UInt64(n)), number: n, arrival: t)
        }
        feed.release()
        feed.timeline.cameraSwitched()
        // The new camera: 20 frames, the third 7 ms late and the sixth 7 ms early, and its
        // 15th frame lost (a real gap).
        for k in Int64(0)..<20 where k != 14 {
            let jitter: Int64 = k == 2 ? 7_000_000 : k == 5 ? -7_000_000 : 0
            let t = Self.start + (10 + k) * period + phaseTenths * period / 10 + jitter
            feed.place(frame(at: t, sequence: UInt64(k)), number: 10 + Int(k), arrival: t)
        }
        feed.release()
        #expect(feed.slots == Array(0..<24) + Array(25..<30), "\(feed.slots)")
        #expect(feed.timeline.droppedFrames == 1)
        #expect(feed.timeline.sequenceGaps == 1)
    }

    @Test func framesLandingInATakenSlotAreNotWrittenTwice() {
        var feed = Feed(Timeline(frameRate: Rational(30), sampleRate: nil, maxDuration: nil, start: Self.start))
        for (n, time) in [Self.start, Self.start + Self.second / 100, Self.start + Self.second / 30].enumerated() {
            feed.place(frame(at: time), number: n, arrival: time)
        }
        feed.release()
        #expect(feed.written.map(\.frame) == [0, 2], "the burst frame is left out, not the one on time")
        #expect(feed.slots == [0, 1])
        #expect(feed.timeline.surplusFrames == 1)
    }

    /// A feeder that delivers one frame late and the next on time (v4l2loopback stamps a
    /// buffer when it is written; a loaded machine writes unevenly): the late frame
    /// moves back into the hole it left, and no frame is lost.
    @Test func aLateFrameMovesBackIntoItsHoleWhenTheNextComesOnTime() {
        var feed = Feed(Timeline(frameRate: Rational(15), sampleRate: nil, maxDuration: nil, start: Self.start))
        let period = Self.second / 15
        let positions: [Double] = [0, 1, 2.8, 3.0, 4.1, 5.85, 6.0, 7, 8, 9.9, 10.2, 11]
        for (n, position) in positions.enumerated() {
            feed.place(frame(at: Self.start + Int64(position * Double(period))), number: n, arrival: Self.start)
        }
        feed.release()
        #expect(feed.slots == Array(0..<12), "\(feed.written)")
        #expect(feed.timeline.droppedFrames == 0)
        #expect(feed.timeline.videoFrames == 12)
    }

    /// A feeder that stalls for two frames and then writes three at once: every frame
    /// of the burst finds a slot, the late ones moved back into the holes.
    @Test func aBurstAfterAStallFillsTheHolesItLeft() {
        var feed = Feed(Timeline(frameRate: Rational(15), sampleRate: nil, maxDuration: nil, start: Self.start))
        let period = Self.second / 15
        let positions: [Double] = [0, 1, 2, 3, 6.1, 6.15, 6.2, 7, 8, 9, 12.05, 12.1, 12.12, 13]
        for (n, position) in positions.enumerated() {
            feed.place(frame(at: Self.start + Int64(position * Double(period))), number: n, arrival: Self.start)
        }
        feed.release()
        #expect(feed.written.map(\.frame) == Array(0..<14), "\(feed.written)")
        #expect(feed.slots == [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], "\(feed.written)")
        #expect(feed.timeline.droppedFrames == 0)
    }

    /// A camera whose first frame came half a frame late makes every later frame look
    /// half a frame early: with jitter, half of them would round into the slot before,
    /// already taken. Early frames take the next free slot instead.
    @Test func aLateFirstFrameDoesNotMakeTheRestCollide() {
        var feed = Feed(Timeline(frameRate: Rational(15), sampleRate: nil, maxDuration: nil, start: Self.start))
        let period = Self.second / 15
        for n in 0..<60 {
            let position = n == 0 ? 0 : Double(n) - 0.5 + (n % 2 == 0 ? 0.08 : -0.08)
            feed.place(frame(at: Self.start + Int64(position * Double(period))), number: n, arrival: Self.start)
        }
        feed.release()
        #expect(feed.slots == Array(0..<60), "\(feed.written)")
        #expect(feed.timeline.droppedFrames == 0)
    }

    /// An H.264 camera whose first frame came most of a frame late (a feeder catching
    /// up as the reader starts): the next frame looks too early for the next slot, but
    /// every later frame needs it, so it takes that slot, and so do the rest; raw frames
    /// in the same places lose the one that collides.
    @Test(arguments: [(PixelFormat.h264, Int64(0)), (.yuyv, 1)])
    func anH264FrameTooEarlyForTheNextSlotTakesItAllTheSame(format: PixelFormat, leftOut: Int64) {
        var feed = Feed(Timeline(frameRate: Rational(15), sampleRate: nil, maxDuration: nil, start: Self.start))
        let period = Self.second / 15
        for n in 0..<30 {
            let position = n == 0 ? 0 : Double(n) - 0.85 + (n % 2 == 0 ? 0.05 : -0.05)
            feed.place(frame(at: Self.start + Int64(position * Double(period)), sequence: UInt64(n), format: format),
                       number: n, arrival: Self.start)
        }
        feed.release()
        #expect(feed.timeline.surplusFrames == leftOut, "\(feed.written)")
        #expect(feed.written.count == 30 - Int(leftOut), "\(feed.written)")
        if leftOut == 0 { #expect(feed.slots == Array(0..<30), "\(feed.written)") }
        #expect(feed.timeline.droppedFrames == 0)
    }

    /// H.264 frames in a burst longer than the hold depth, all stamped at once: those
    /// that find a slot no more than ``Timeline/holdDepth`` ahead of them are kept, the
    /// rest left out and counted; the movie keeps real time.
    @Test func anH264BurstLongerThanTheHoldDepthKeepsWhatFits() {
        var feed = Feed(Timeline(frameRate: Rational(15), sampleRate: nil, maxDuration: nil, start: Self.start))
        let period = Self.second / 15
        let positions: [Double] = [0, 1, 2, 3] + Array(repeating: 4.2, count: 8) + [10, 11]
        for (n, position) in positions.enumerated() {
            feed.place(frame(at: Self.start + Int64(position * Double(period)), sequence: UInt64(n), format: .h264),
                       number: n, arrival: Self.start)
        }
        feed.release()
        #expect(feed.written.map(\.frame) == [0, 1, 2, 3, 4, 5, 6, 7, 8, 12, 13], "\(feed.written)")
        #expect(feed.slots == [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11], "\(feed.written)")
        #expect(feed.timeline.surplusFrames == 3)
        #expect(feed.timeline.droppedFrames == 1)
    }

    /// A camera that slows to half the rate (exposure in the dark) keeps real time:
    /// its frames two slots apart are not pulled into the holes between them.
    @Test func aCameraAtHalfTheRateKeepsItsFramesOnTheirSlots() {
        var feed = Feed(Timeline(frameRate: Rational(30), sampleRate: nil, maxDuration: nil, start: Self.start))
        let period = Self.second / 30
        for n in 0..<30 {
            let jitter: Int64 = n % 3 == 0 ? 3_000_000 : n % 3 == 1 ? -3_000_000 : 0
            feed.place(frame(at: Self.start + Int64(2 * n) * period + jitter, sequence: UInt64(n)), number: n, arrival: Self.start)
        }
        feed.release()
        #expect(feed.slots == (0..<30).map { Int64(2 * $0) }, "\(feed.written)")
        #expect(feed.timeline.droppedFrames == 29)
    }

    @Test func audioBeforeTheFirstFrameIsTrimmed() {
        var timeline = Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: nil, start: Self.start)
        // Audio from 30 ms before the first frame.
        #expect(timeline.place(chunk(at: Self.start - 30_000_000), arrival: Self.start).isEmpty)
        _ = timeline.place(frame(at: Self.start), arrival: Self.start)
        let pieces = timeline.place(chunk(at: Self.start - 20_000_000), arrival: Self.start)
        // Held chunk (-30..-20 ms) is dropped whole; the next (-20..-10 ms)... also whole.
        #expect(pieces.reduce(0) { $0 + $1.frameCount } == 0)
        let next = timeline.place(chunk(at: Self.start - 5_000_000), arrival: Self.start)
        // -5 ms..+5 ms: the first 240 frames are before t = 0.
        #expect(next.map(\.frameCount) == [240])
        #expect(timeline.audioWritten == 240)
    }

    @Test func audioStartingAfterTheFirstFrameIsPaddedWithSilence() {
        var timeline = Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: nil, start: Self.start)
        _ = timeline.place(frame(at: Self.start), arrival: Self.start)
        let pieces = timeline.place(chunk(at: Self.start + 50_000_000), arrival: Self.start)
        #expect(pieces.map(\.frameCount) == [2400, 480])
        #expect(timeline.insertedSilence == 0, "leading alignment is not a microphone gap")
    }

    @Test func microphoneGapsAreFilledWithSilenceToStayInStep() {
        var timeline = Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: nil, start: Self.start)
        _ = timeline.place(frame(at: Self.start), arrival: Self.start)
        _ = timeline.place(chunk(at: Self.start), arrival: Self.start)
        // An overrun loses 500 ms: the next period is stamped 510 ms in.
        let pieces = timeline.place(chunk(at: Self.start + 510_000_000), arrival: Self.start)
        #expect(pieces.map(\.frameCount) == [24000, 480])
        #expect(timeline.insertedSilence == 24000)
        // Ordinary jitter (5 ms) is not a gap.
        let jittery = timeline.place(chunk(at: Self.start + 525_000_000), arrival: Self.start)
        #expect(jittery.map(\.frameCount) == [480])
    }

    @Test func timestampJitterAloneNeverCutsOrPadsTheAudio() {
        var timeline = Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: nil, start: Self.start)
        _ = timeline.place(frame(at: Self.start), arrival: Self.start)
        // A fixed linear congruential sequence, so every run sees the same jitter.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for k in 0..<3000 {
            // ±25 ms of jitter around the true capture time of each period after the first
            // (which sets the alignment; its own error is not jitter of the stream).
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let jitter = k == 0 ? 0 : Int64(seed >> 33) % 50_000_001 - 25_000_000
            let pieces = timeline.place(chunk(at: Self.start + 100_000_000 + Int64(k) * 10_000_000 + jitter), arrival: Self.start)
            if k > 0 { #expect(pieces.map(\.timelineLength) == [480], "period \(k)") }
        }
        #expect(timeline.droppedAudio == 0 && timeline.insertedSilence == 0 && timeline.stretchedAudio == 0 && timeline.movedStart == 0)
    }

    /// A microphone whose clock is 0.05 % off (about 1 s in 30 min) stays within one
    /// video frame of the video for a whole 30-minute recording, by stretching the audio
    /// (never by cutting it or padding silence in), a little at a time.
    @Test(arguments: [1.0005, 0.9995])
    func audioStaysInStepOverThirtyMinutesWhenTheMicrophoneClockDrifts(clockRatio: Double) {
        var timeline = Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: nil, start: Self.start)
        _ = timeline.place(frame(at: Self.start), arrival: Self.start)
        var worst = 0.0
        let period = 480
        for k in 0..<(30 * 60 * 100) {
            // The device delivers 480 samples per period by its own clock.
            let captured = Self.start + Int64((Double(k * period) / 48000 / clockRatio * 1e9).rounded())
            let before = timeline.audioWritten
            let pieces = timeline.place(chunk(at: captured, frames: period), arrival: captured)
            #expect(pieces.allSatisfy { abs($0.stretch) <= period / Timeline.maximumStretchRatio }, "period \(k)")
            let placed = pieces.reduce(0) { $0 + $1.timelineLength }
            if placed > 0 {
                // Where the chunk's last sample landed in the movie vs when it was captured.
                let inMovie = Double(before + Int64(placed)) / 48000
                let inReality = Double(captured - Self.start) / 1e9 + Double(period) / 48000 / clockRatio
                worst = max(worst, abs(inMovie - inReality))
            }
        }
        #expect(worst < 1.0 / 30, "worst offset \(worst) s")
        #expect(timeline.insertedSilence == 0 && timeline.droppedAudio == 0, "nothing cut out or padded in")
        // A fast clock delivers too many samples (removed), a slow one too few (added):
        // about 0.05 % of 30 minutes, 0.9 s.
        let expected = (1 / clockRatio - 1) * 30 * 60 * 48000
        #expect(abs(Double(timeline.stretchedAudio) - expected) < 0.04 * 48000, "stretched \(timeline.stretchedAudio), drift \(expected)")
    }

    /// Feeds a sound server's 1024-frame periods, the first captured 150 ms after the
    /// first frame, each dated `dated(k)` ns off its true capture time (one in three
    /// 15 ms early besides, as PulseAudio's reads just after a fragment are), for
    /// `seconds`. Returns, after each period, how far (in frames) the sound written so
    /// far ends from where its last sample was captured (positive: late in the movie).
    func serverPeriods(_ timeline: inout Timeline, seconds: Int, dated: (Int) -> Int64) -> [Int64] {
        _ = timeline.place(frame(at: Self.start), arrival: Self.start)
        var errors: [Int64] = []
        for k in 0..<(seconds * 48000 / 1024) {
            let captured = Self.start + 150_000_000 + Int64(k) * 1024 * Self.second / 48000
            let scatter: Int64 = k % 3 == 2 ? -15_000_000 : 0
            _ = timeline.place(chunk(at: captured + dated(k) + scatter, frames: 1024), arrival: captured)
            errors.append(timeline.audioWritten - (7200 + Int64(k + 1) * 1024))
        }
        return errors
    }

    /// A sound server's start dated wrong (its delay reports off by most of its buffer
    /// for the first `wrongPeriods`, as PulseAudio's are for a quarter second or for
    /// seconds, while later ones are right): the sound is moved at once, within a
    /// quarter second of the first right report, by silence inserted (a start dated too
    /// early) or sound left out (too late), rather than stretched for 20 s; from there it
    /// sits within a few ms of where it was captured.
    @Test(arguments: [(Int64(90), 12), (60, 12), (-60, 12), (-80, 12), (95, 180)])
    func aStartDatedWrongIsMovedAtOnce(earlyMilliseconds: Int64, wrongPeriods: Int) {
        var timeline = Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: nil, start: Self.start)
        let errors = serverPeriods(&timeline, seconds: 8) { k in k < wrongPeriods ? -earlyMilliseconds * 1_000_000 : 0 }
        let expected = earlyMilliseconds * 48
        #expect(abs(timeline.movedStart - expected) <= 15 * 48, "moved \(timeline.movedStart) frames")
        #expect(timeline.insertedSilence == 0 && timeline.droppedAudio == 0)
        // A quarter second after the first right report, and from there on, within the
        // drift correction's tolerance.
        #expect(errors[(wrongPeriods + 12)...].allSatisfy { abs($0) <= 20 * 48 }, "offsets \(errors.map { $0 / 48 }) ms")
        #expect(errors.suffix(100).allSatisfy { abs($0) <= 5 * 48 }, "moved \(timeline.movedStart), stretched \(timeline.stretchedAudio), offsets \(errors.map { $0 / 48 }) ms")
    }

    /// Reports that come right slowly (as PulseAudio's did in one full run: 187 ms too
    /// old at first, right 4 s later, steadily): the sound follows them, moved when they
    /// have come 40 ms nearer and then each time they come 20 ms nearer, and sits where
    /// it was captured once they are right.
    @Test func aStartReportedWrongThatComesRightSlowlyIsFollowed() {
        var timeline = Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: nil, start: Self.start)
        let converged = 4 * 48000 / 1024
        let errors = serverPeriods(&timeline, seconds: 8) { k in
            -187_000_000 * Int64(max(0, converged - k)) / Int64(converged)
        }
        #expect(abs(timeline.movedStart - 187 * 48) <= 20 * 48, "moved \(timeline.movedStart) frames")
        #expect(timeline.insertedSilence == 0 && timeline.droppedAudio == 0)
        #expect(errors[(converged + 12)...].allSatisfy { abs($0) <= 20 * 48 }, "offsets \(errors.map { $0 / 48 }) ms")
    }

    /// A start dated right is never moved: not by the scatter of a server's dates, nor
    /// by a microphone clock 0.3 % off (30 ms in the first 10 s), nor by a misplacement
    /// after the first 10 s (which only drift can make there; it is stretched).
    @Test func aStartDatedRightIsNeverMoved() {
        var scattered = Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: nil, start: Self.start)
        _ = serverPeriods(&scattered, seconds: 10) { _ in 0 }
        #expect(scattered.movedStart == 0 && scattered.stretchedAudio == 0)
        var drifting = Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: nil, start: Self.start)
        _ = serverPeriods(&drifting, seconds: 14) { k in Int64(k) * 1024 * Self.second / 48000 * 3 / 1000 }
        #expect(drifting.movedStart == 0 && drifting.stretchedAudio > 0)
        var late = Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: nil, start: Self.start)
        _ = serverPeriods(&late, seconds: 14) { k in k >= 500 ? 60_000_000 : 0 }
        #expect(late.movedStart == 0 && late.stretchedAudio > 0)
    }

    @Test func audioEndsExactlyWhereTheLimitedVideoEnds() {
        var feed = Feed(Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: DurationLimit(parsing: "1"), start: Self.start))
        var audio: Int64 = 0
        for n in 0..<40 {
            let t = Self.start + Int64(n) * Self.second / 30
            feed.place(frame(at: t), number: n, arrival: t)
        }
        var timeline = feed.timeline
        for k in 0..<120 {
            audio += timeline.place(chunk(at: Self.start + Int64(k) * 10_000_000), arrival: Self.start).reduce(0) { $0 + Int64($1.frameCount) }
        }
        #expect(timeline.videoFrames == 30)
        #expect(audio == 48000)
        #expect(timeline.isComplete(now: Self.start))
    }

    /// Feeds a camera at 30 fps (numbered on, as a camera counts while paused too) and
    /// 10-ms audio periods, in capture order, captured from `from` to `to` milliseconds
    /// after the start.
    func feed(_ feed: inout Feed, from: Int64, to: Int64, audio: inout Int64) {
        var n = (from * 30 + 999) / 1000, k = (from + 9) / 10
        let time = { (n: Int64) in Self.start + n * Self.second / 30 }
        while time(n) < Self.start + to * 1_000_000 || Self.start + k * 10_000_000 < Self.start + to * 1_000_000 {
            let frameTime = time(n), audioTime = Self.start + k * 10_000_000
            let frameDue = frameTime < Self.start + to * 1_000_000
            if frameDue, frameTime <= audioTime || audioTime >= Self.start + to * 1_000_000 {
                feed.place(frame(at: frameTime, sequence: UInt64(n)), number: Int(n), arrival: frameTime)
                n += 1
            } else {
                audio += feed.timeline.place(chunk(at: audioTime), arrival: audioTime).reduce(0) { $0 + Int64($1.timelineLength) }
                k += 1
            }
        }
    }

    /// Paused at `pause` ms after the first second (on a frame, or between two), for two
    /// seconds; resumed 5 ms after the camera's frame at 3 s.
    @Test(arguments: [Int64(0), 10, 30])
    func aPauseLeavesNoGapInEitherStreamAndTheLimitCountsOnlyRecordedTime(pause: Int64) {
        var feed = Feed(Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: DurationLimit(parsing: "3"), start: Self.start))
        var audio: Int64 = 0
        self.feed(&feed, from: 0, to: 1000 + pause, audio: &audio)
        // The frames captured before the pause (the one at 1 s too, unless the pause is on it).
        let before = pause > 0 ? 31 : 30
        feed.timeline.pause(at: Self.start + (1000 + pause) * 1_000_000)
        feed.release()
        #expect(feed.timeline.isPaused)
        self.feed(&feed, from: 1000 + pause, to: 3000, audio: &audio)
        // Nothing captured while paused is recorded, except the audio up to the end of
        // the last frame's slot.
        #expect(feed.timeline.duration == Rational(Int64(before), 30) && (Int64(before) * 1600..<Int64(before) * 1600 + 480).contains(audio), "\(audio)")
        feed.timeline.resume(at: Self.start + 3 * Self.second + 5_000_000)
        self.feed(&feed, from: 3000, to: 6000, audio: &audio)
        let timeline = feed.timeline
        #expect(!timeline.isPaused)
        // Video: every slot from 0 to the limit, the first frame after the pause on the
        // slot after the last before it; none dropped, none counted as skipped.
        #expect(feed.slots == Array(0..<90))
        #expect(feed.written.map(\.frame) == Array(0..<before) + Array(91..<(91 + 90 - before)))
        #expect(timeline.droppedFrames == 0 && timeline.sequenceGaps == 0 && timeline.surplusFrames == 0)
        #expect(timeline.pausedFrames == Int64(91 - before))
        #expect(timeline.reachedLimit && timeline.duration == Rational(3))
        // Audio: exactly as long as the video, with no silence put in and none dropped.
        #expect(audio == 3 * 48000)
        #expect(timeline.insertedSilence == 0 && timeline.droppedAudio == 0)
        #expect(timeline.isComplete(now: Self.start + 6 * Self.second))
    }

    @Test func aStopWhilePausedEndsTheMovieWhereItPaused() {
        var feed = Feed(Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: nil, start: Self.start))
        var audio: Int64 = 0
        self.feed(&feed, from: 0, to: 2000, audio: &audio)
        feed.timeline.pause(at: Self.start + 2 * Self.second)
        feed.release()
        self.feed(&feed, from: 2000, to: 4000, audio: &audio)
        feed.timeline.stop(at: Self.start + 4 * Self.second)
        self.feed(&feed, from: 4000, to: 5000, audio: &audio)
        let timeline = feed.timeline
        #expect(feed.slots == Array(0..<60))
        #expect(timeline.duration == Rational(2) && audio == 2 * 48000)
        #expect(timeline.isComplete(now: Self.start + 4 * Self.second), "no wait for audio that will not come")
    }

    @Test func stopEndsAfterTheNewestFrameAndPadsAudioToMatch() {
        var timeline = Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: nil, start: Self.start)
        for n in 0..<15 {
            let t = Self.start + Int64(n) * Self.second / 30
            _ = timeline.place(frame(at: t), arrival: t)
        }
        _ = timeline.place(chunk(at: Self.start, frames: 4800), arrival: Self.start)
        timeline.stop(at: Self.start + Self.second)
        #expect(!timeline.reachedLimit)
        #expect(timeline.place(frame(at: Self.start + Self.second), arrival: Self.start).index == nil)
        #expect(!timeline.isComplete(now: Self.start + Self.second))
        #expect(timeline.isComplete(now: Self.start + 3 * Self.second), "audio's grace time is over")
        let padding = timeline.closingSilence(format: Self.mono)
        #expect(padding?.frameCount == 24000 - 4800)
        #expect(timeline.audioWritten == 24000)
        #expect(timeline.duration == Rational(1, 2))
    }

    @Test func aSilentSourceIsReportedAsStalled() {
        let timeline = Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: nil, start: Self.start)
        #expect(timeline.stalledSource(now: Self.start + Self.second, timeout: 5 * Self.second) == nil)
        #expect(timeline.stalledSource(now: Self.start + 6 * Self.second, timeout: 5 * Self.second) == .video)
    }
}
