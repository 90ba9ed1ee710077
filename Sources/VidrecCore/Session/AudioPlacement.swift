import VidrecMedia

/// The sound's half of ``Timeline``: where each chunk of the microphone's sound goes,
/// from its capture time, once the movie's time 0 (the first frame's capture time) is
/// known. It starts the sound against that origin (silence before it, or the part
/// captured earlier left out), fills lost samples with silence, leaves out what
/// overlaps sound already written, moves a start dated wrong at once, and stretches
/// periods to follow the microphone's clock's drift. The timeline keeps what comes
/// before the origin, the pause, and where the sound must end.
///
/// Positions are audio frame counts (time base `1/sampleRate`).
struct AudioPlacement {
    /// Whether drift is corrected by stretching audio (the session has a resampler).
    let correctsDrift: Bool
    /// Audio frames placed (including inserted silence).
    private(set) var written: Int64 = 0
    /// Audio frames of silence inserted for gaps.
    private(set) var insertedSilence: Int64 = 0
    /// Audio frames dropped because the microphone's timestamps jumped back.
    private(set) var dropped: Int64 = 0
    /// Audio frames the drift correction added (positive) or removed (negative).
    private(set) var stretched: Int64 = 0
    /// Audio frames the sound was moved by in its first seconds (``Timeline/startTolerance``).
    private(set) var movedStart: Int64 = 0

    private var started = false
    /// Moving average of where audio stands against its timestamps, in frames.
    private var drift = 0.0
    /// Whether the drift correction is running (it stops once the drift is small again).
    private var correcting = false
    /// The audio position up to which a misplaced start is moved
    /// (``Timeline/startCheckDuration`` from the sound's first sample), once it has started.
    private var startCheckEnd: Int64?
    /// The newest periods' offsets from their timestamps (frames), while the start is
    /// checked.
    private var startOffsets: [Int64] = []
    /// Frames still to leave out of the next periods: a start dated too late was moved
    /// back by more than the period that showed it.
    private var startOverlap: Int64 = 0

    init(correctsDrift: Bool) {
        self.correctsDrift = correctsDrift
    }

    /// The sound starts afresh against the origin with its next chunk (after a pause,
    /// when the movie's time 0 has moved on): what overlaps is trimmed, a gap padded.
    mutating func restart() {
        started = false
        drift = 0
        correcting = false
        startOffsets = []
        startOverlap = 0
    }

    /// Closing silence took the sound to `end`.
    mutating func markWritten(upTo end: Int64) {
        written = end
    }

    /// The pieces to append for `input`, in order (silence first where the stream has a
    /// gap), placed against `origin` (the movie's time 0, a capture time) and cut at
    /// `end` when the sound's end is known.
    mutating func place(_ input: AudioChunk, origin: Int64, end: Int64?) -> [AudioChunk] {
        var chunk = input
        if started, startOverlap > 0 {
            // The rest of a start moved back (``misplacedStart(_:rate:)``).
            let (left, rest) = Self.dropFront(startOverlap, of: chunk)
            startOverlap -= left
            guard let rest else { return [] }
            chunk = rest
        }
        let rate = Int64(chunk.format.sampleRate)
        let position = (Rational(chunk.captureTime - origin, Duration.nanosecondsPerSecond) * Rational(rate)).rounded
        let gap = position - written
        let placing = started ? follow(chunk, gap: gap, rate: rate) : start(chunk, gap: gap, rate: rate, origin: origin)
        guard let (silence, rest) = placing else { return [] }
        return append(silence + [rest], upTo: end)
    }

    /// The sound's first chunk, `gap` frames from where it belongs: silence before it,
    /// or its front left out; `nil` when nothing of it is left.
    private mutating func start(_ input: AudioChunk, gap: Int64, rate: Int64, origin: Int64) -> ([AudioChunk], AudioChunk)? {
        var chunk = input
        var silence: [AudioChunk] = []
        if gap < 0 {
            guard let rest = Self.dropFront(-gap, of: chunk).rest else { return nil }
            chunk = rest
        } else if gap > 0 {
            silence.append(.silence(format: chunk.format, frameCount: Int(gap), captureTime: origin))
        }
        started = true
        if startCheckEnd == nil {
            startCheckEnd = max(gap, 0) + written + (Timeline.startCheckDuration * Rational(rate)).rounded
        }
        return (silence, chunk)
    }

    /// A later chunk, `gap` frames from where the sound written so far ends: lost
    /// samples filled, an overlap left out, a misplaced start moved, or drift followed;
    /// `nil` when nothing of it is left.
    private mutating func follow(_ input: AudioChunk, gap: Int64, rate: Int64) -> ([AudioChunk], AudioChunk)? {
        var chunk = input
        if Rational(gap, rate) > Timeline.audioGapThreshold {
            // Samples were lost (an overrun): fill the gap at once.
            insertedSilence += gap
            drift = 0
            startOffsets = []
            return ([.silence(format: chunk.format, frameCount: Int(gap), captureTime: chunk.captureTime)], chunk)
        }
        if Rational(-gap, rate) > Timeline.audioGapThreshold {
            // The timestamps jumped back (a device whose clock was reset): what overlaps
            // audio already written is dropped.
            let (left, rest) = Self.dropFront(-gap, of: chunk)
            dropped += left
            drift = 0
            startOffsets = []
            return rest.map { ([], $0) }
        }
        if let shift = misplacedStart(gap, rate: rate) {
            return move(chunk, by: shift)
        }
        if correctsDrift { followDrift(&chunk, gap: gap, rate: rate) }
        return ([], chunk)
    }

    /// The start was dated wrong: from `chunk` on the sound sits where its timestamps
    /// say, at once, `shift` frames later (silence before it) or earlier (its front, and
    /// what remains of the shift in the next chunks, left out).
    private mutating func move(_ input: AudioChunk, by shift: Int64) -> ([AudioChunk], AudioChunk)? {
        movedStart += shift
        drift = 0
        correcting = false
        if shift > 0 {
            return ([.silence(format: input.format, frameCount: Int(shift), captureTime: input.captureTime)], input)
        }
        let (left, rest) = Self.dropFront(-shift, of: input)
        startOverlap = -shift - left
        return rest.map { ([], $0) }
    }

    /// Slow drift between the microphone's clock and CLOCK_MONOTONIC, seen through
    /// jittery timestamps: follows a moving average; past the tolerance, stretches each
    /// period by up to 0.5 % until the audio is back in step. The sound keeps its shape:
    /// nothing is cut out or padded in.
    private mutating func followDrift(_ chunk: inout AudioChunk, gap: Int64, rate: Int64) {
        drift = drift * (1 - Timeline.driftSmoothing) + Double(gap) * Timeline.driftSmoothing
        let tolerance = (Timeline.audioSyncTolerance * Rational(rate)).doubleValue
        if abs(drift) > tolerance { correcting = true } else if abs(drift) < tolerance / 4 { correcting = false }
        guard correcting else { return }
        let most = Double(max(1, chunk.frameCount / Timeline.maximumStretchRatio))
        let step = Int(min(most, abs(drift)).rounded())
        chunk.stretch = drift > 0 ? step : -step
        drift -= Double(chunk.stretch)
    }

    /// Writes `pieces` in order, up to `end` when it is known (the last piece cut to it,
    /// unstretched); returns what was written.
    private mutating func append(_ pieces: [AudioChunk], upTo end: Int64?) -> [AudioChunk] {
        var placed: [AudioChunk] = []
        for piece in pieces {
            var piece = piece
            if let end {
                let room = end - written
                if room <= 0 { break }
                if Int64(piece.timelineLength) > room { piece = piece.slice(0..<Int(min(room, Int64(piece.frameCount)))) }
            }
            written += Int64(piece.timelineLength)
            stretched += Int64(piece.stretch)
            placed.append(piece)
        }
        return placed
    }

    /// Leaves up to `frames` frames out of the front of `chunk`: how many were left out,
    /// and the rest of the chunk (`nil` when nothing is left).
    private static func dropFront(_ frames: Int64, of chunk: AudioChunk) -> (dropped: Int64, rest: AudioChunk?) {
        let dropped = Int(min(frames, Int64(chunk.frameCount)))
        guard dropped < chunk.frameCount else { return (Int64(dropped), nil) }
        return (Int64(dropped), chunk.slice(dropped..<chunk.frameCount))
    }

    /// The offset (frames) to move the sound by when the newest periods, in its first
    /// ``Timeline/startCheckDuration``, sit steadily further than
    /// ``Timeline/startTolerance`` from their timestamps (three in four of the last
    /// ``Timeline/startCheckPeriods``, on one side): their median; `nil` otherwise. After
    /// a first move, reports that come right slowly are followed further than
    /// ``Timeline/audioSyncTolerance`` (a server that misreported its start is still
    /// coming right).
    private mutating func misplacedStart(_ gap: Int64, rate: Int64) -> Int64? {
        guard let end = startCheckEnd, written < end else {
            startOffsets = []
            return nil
        }
        startOffsets.append(gap)
        if startOffsets.count > Timeline.startCheckPeriods { startOffsets.removeFirst() }
        guard startOffsets.count == Timeline.startCheckPeriods else { return nil }
        let sorted = startOffsets.sorted()
        let quarter = sorted.count / 4
        // Three periods in four beyond the tolerance, on one side; moved by their median.
        // Once moved, the reports are coming right: the drift tolerance is enough.
        let tolerance = (movedStart == 0 ? Timeline.startTolerance : Timeline.audioSyncTolerance) * Rational(rate)
        guard Rational(sorted[quarter]) > tolerance || Rational(-sorted[sorted.count - 1 - quarter]) > tolerance else { return nil }
        startOffsets = []
        return sorted[sorted.count / 2]
    }
}
