import VidrecMedia

/// Dates the first periods read from a sound server's PCM together.
///
/// Each period read through a plug-in is dated from the time it is read and
/// `snd_pcm_delay`; the delay a server reports while a stream starts can be off by a
/// whole buffer (PulseAudio's, now and then, by its four 25-ms fragments), and the first
/// period's date decides where the movie's sound starts: later, better dates only move
/// it by the drift correction's 0.5 %. So the periods of the first
/// ``settlingDuration`` are held. Each says when the stream's first sample was captured
/// (the time it was read, less the frames read so far and those still in the server);
/// the periods are dated, one after the other, from the median of those estimates, which
/// one wrong report cannot move. After that, each period is dated on its own.
public struct ServerStreamDating: Sendable {
    /// How much sound (in seconds, as a fraction) is held to date the stream's start.
    public static let settlingDuration = (numerator: 1, denominator: 4)

    /// The stream's sample rate.
    public let sampleRate: Int
    /// Whether the start is dated: periods are then dated on their own.
    public private(set) var isSettled = false
    /// The frame counts of the periods held, oldest first.
    private var held: [Int] = []
    /// The held periods' estimates of the first sample's capture time (ns).
    private var starts: [Int64] = []
    private var framesRead: Int64 = 0
    /// The newest time a period was read (ns), for a start no delay was known for.
    private var lastRead: Int64 = 0

    public init(sampleRate: Int) {
        self.sampleRate = sampleRate
    }

    /// Adds the period of `frames` frames read at `now` (CLOCK_MONOTONIC, ns), with
    /// `delay` frames still in the server then (`nil` when it could not be read).
    /// Returns the capture times of the periods it releases, oldest first: none until
    /// the start settles, then every period held. Only for periods read before then.
    public mutating func add(frames: Int, now: Int64, delay: Int?) -> [Int64] {
        precondition(!isSettled, "the stream's start is dated: date periods on their own")
        held.append(frames)
        framesRead += Int64(frames)
        lastRead = now
        if let delay { starts.append(now - nanoseconds(Int64(delay) + framesRead)) }
        guard framesRead * Int64(ServerStreamDating.settlingDuration.denominator)
                >= Int64(sampleRate * ServerStreamDating.settlingDuration.numerator) else { return [] }
        return release()
    }

    /// Dates and releases the periods held: the stream broke (an overrun) or ended
    /// before the start settled. Later periods are dated on their own.
    public mutating func release() -> [Int64] {
        isSettled = true
        guard !held.isEmpty else { return [] }
        let sorted = starts.sorted()
        // No delay known: the newest frame read was captured as it was read.
        let start = sorted.isEmpty ? lastRead - nanoseconds(framesRead) : sorted[sorted.count / 2]
        var offset: Int64 = 0
        let dates = held.map { frames in
            defer { offset += Int64(frames) }
            return start + nanoseconds(offset)
        }
        held = []
        starts = []
        return dates
    }

    private func nanoseconds(_ frames: Int64) -> Int64 {
        AudioFormat.nanoseconds(ofFrames: frames, rate: sampleRate)
    }
}
