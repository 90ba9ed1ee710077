import Foundation

/// The periods vidrec read from a sound server, from its standard error with
/// `VIDREC_SOUND_TRACE=1` (`vidrec: sound trace: period N: F frames read at T ns,
/// snd_pcm_delay D`), and what each says of when the stream's first sample was captured.
struct SoundServerTrace {
    /// One period read: its frames, when it was read (CLOCK_MONOTONIC, ns) and the delay
    /// the server gave then (frames; `nil` when unknown).
    struct Period {
        let frames: Int
        let read: Int64
        let delay: Int?
    }

    let periods: [Period]
    /// The lines as written, for a failure message.
    let lines: [Substring]

    init(_ err: String) {
        lines = err.split(separator: "\n").filter { $0.hasPrefix("vidrec: sound trace: ") }
            .map { $0.dropFirst("vidrec: sound trace: ".count) }
        periods = lines.compactMap { line in
            // "period N: F frames read at T ns, snd_pcm_delay D"
            let words = line.split(separator: " ")
            guard words.count == 10, let frames = Int(words[2]), let read = Int64(words[6]) else { return nil }
            return Period(frames: frames, read: read, delay: Int(words[9]))
        }
    }

    /// Each period's estimate of when the stream's first sample was captured (ns): the
    /// time it was read, less the frames read so far and those still in the server.
    func starts(rate: Int) -> [(read: Int64, start: Int64)] {
        var framesRead: Int64 = 0
        return periods.compactMap { period in
            framesRead += Int64(period.frames)
            guard let delay = period.delay else { return nil }
            return (period.read, period.read - (Int64(delay) + framesRead) * 1_000_000_000 / Int64(rate))
        }
    }

    /// When the server's first delay reports said its sound was older than its later
    /// ones do (the first second's median estimate of the start over `beyond` seconds
    /// earlier than the last two seconds'): by how much (seconds), and the time of the
    /// last period read whose estimate was still that far off (ns). `nil` when they agree.
    func misreportedStart(rate: Int, beyond: Double = 0.04) -> (seconds: Double, until: Int64)? {
        let starts = self.starts(rate: rate)
        guard let first = starts.first, let last = starts.last, last.read - first.read > 4_000_000_000 else { return nil }
        let median = { (values: [Int64]) in values.sorted()[values.count / 2] }
        let early = median(starts.filter { $0.read < first.read + 1_000_000_000 }.map(\.start))
        let settled = median(starts.filter { $0.read > last.read - 2_000_000_000 }.map(\.start))
        let off = Double(settled - early) / 1e9
        guard off > beyond, let until = starts.last(where: { Double(settled - $0.start) / 1e9 > beyond })?.read else { return nil }
        return (off, until)
    }
}
