import VidrecMedia

/// How long one track lasts in the index, and the decode-time deltas that say so.
///
/// A video frame is shown for one frame period (the most common gap between decode
/// times; dropped camera frames leave longer gaps). The track is made to last, by decode
/// times and by presentation times alike, from its first picture to the end of its latest
/// one: with B-frames and frames dropped near the end, the last sample in decode order is
/// not the latest shown, so its delta is lengthened (and, when it is shown later after
/// decoding than the first sample was, it is decoded later, which keeps the decode order).
/// Other tracks last as long as their samples.
struct TrackTiming {
    /// The deltas to write (`stts`).
    let durations: [UInt32]
    /// The composition offsets to write (`ctts`): the samples' own, except that a last
    /// sample decoded later keeps its presentation time.
    let compositionOffsets: [Int32]
    /// The media's length: the deltas' sum (`mdhd`), in media time units.
    let mediaDuration: UInt64
    /// The presented length after the edit list's start (the edit's duration), in media
    /// time units.
    let presentedDuration: UInt64

    init(_ samples: TrackSamples, template: TrackTemplate) {
        var durations = samples.durations
        var offsets = samples.compositionOffsets
        let count = samples.count
        guard count > 0 else {
            self.durations = []
            compositionOffsets = []
            mediaDuration = 0
            presentedDuration = 0
            return
        }
        let first = samples.decodeTimes[0]
        if template.isVideo, let period = TrackTiming.framePeriod(samples) {
            var shownStart = Int64.max, shownEnd = Int64.min
            for index in 0..<count {
                let shown = samples.decodeTimes[index] - first + Int64(samples.compositionOffsets[index])
                shownStart = min(shownStart, shown)
                shownEnd = max(shownEnd, shown + period)
            }
            var lastDecode = samples.decodeTimes[count - 1] - first
            let lastShown = lastDecode + Int64(samples.compositionOffsets[count - 1])
            let initialDelay = shownStart
            if count > 1, lastShown - lastDecode > initialDelay {
                let later = lastShown - initialDelay
                durations[count - 2] = UInt32(clamping: Int64(durations[count - 2]) + later - lastDecode)
                offsets[count - 1] = Int32(clamping: lastShown - later)
                lastDecode = later
            }
            let wanted = (shownEnd - shownStart) - lastDecode
            durations[count - 1] = UInt32(clamping: max(period, wanted))
            self.durations = durations
            compositionOffsets = offsets
            mediaDuration = durations.reduce(0) { $0 + UInt64($1) }
            presentedDuration = UInt64(max(0, shownEnd - max(0, template.mediaTime)))
        } else {
            self.durations = durations
            compositionOffsets = offsets
            mediaDuration = durations.reduce(0) { $0 + UInt64($1) }
            presentedDuration = UInt64(max(0, Int64(mediaDuration) - max(0, template.mediaTime)))
        }
    }

    /// One frame at the movie's rate: the greatest common divisor of the gaps between
    /// decode times and of the samples' durations (each fragment's last sample lasts
    /// its packet's own duration, one frame). Every frame sits on a slot of the movie's
    /// rate, so dropped frames only make gaps a whole number of frames long, and an
    /// encoder behind on a starved machine, which drops most frames, can make two frames
    /// the most common gap, or leave a segment two frames 49 slots apart. The most
    /// common sample duration stands in when the divisor is implausibly small against
    /// it (times not on slots, or a duration cut at a crashed recording's common end).
    static func framePeriod(_ samples: TrackSamples) -> Int64? {
        let common = samples.durations.mostCommonPositive().map(Int64.init)
        let steps = zip(samples.decodeTimes.dropFirst(), samples.decodeTimes).map { $0 - $1 } + samples.durations.map(Int64.init)
        let divisor = steps.filter { $0 > 0 }.reduce(UInt128(0)) { Rational.gcd($0, UInt128($1)) }
        guard divisor > 0 else { return common }
        let period = Int64(divisor)
        guard let common, period * 8 < common else { return period }
        return common
    }

    /// When each sample stops being shown, in seconds of presentation (after the edit
    /// list's start), in decode order.
    static func shownEnds(_ samples: TrackSamples, template: TrackTemplate) -> [Double] {
        guard let first = samples.decodeTimes.first else { return [] }
        let period = template.isVideo ? framePeriod(samples) : nil
        let scale = Double(template.timescale)
        return (0..<samples.count).map { index in
            let shown = samples.decodeTimes[index] - first + Int64(samples.compositionOffsets[index])
            let length = period ?? Int64(samples.durations[index])
            return Double(shown + length - max(0, template.mediaTime)) / scale
        }
    }
}
