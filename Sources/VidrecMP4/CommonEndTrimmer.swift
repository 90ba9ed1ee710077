/// Where a crashed recording's tracks are cut so that they end together: its last
/// fragment may hold more of one track than of the other.
///
/// Video is kept as a prefix in decode order (so every kept frame decodes), the longest
/// whose frames all end no later than half a frame after the shorter of it and the
/// sound; the other tracks (sound, the clock track's timed text) keep the samples that
/// start before that video ends. They then end within one video frame (or one audio
/// packet) of each other.
enum CommonEndTrimmer {
    /// Cuts `tracks` (by track ID) in place; nothing changes without both a video track
    /// and another track.
    static func trim(_ tracks: inout [UInt32: TrackSamples], templates: [TrackTemplate]) {
        guard let video = templates.first(where: \.isVideo), let videoSamples = tracks[video.trackID],
              let period = TrackTiming.framePeriod(videoSamples) else { return }
        let others = templates.filter { !$0.isVideo && (tracks[$0.trackID]?.count ?? 0) > 0 }
        guard !others.isEmpty else { return }
        let videoEnds = TrackTiming.shownEnds(videoSamples, template: video)
        // Timed text ends where its last cue is said to, which says nothing of the picture.
        let soundEnd = others.filter { $0.handler == .soun }.map { TrackTiming.shownEnds(tracks[$0.trackID]!, template: $0).max() ?? 0 }.min()
        guard let videoEnd = videoEnds.max() else { return }
        let limit = min(videoEnd, soundEnd ?? videoEnd) + Double(period) / Double(video.timescale) / 2
        var kept = 0
        var keptEnd = 0.0
        for end in videoEnds {
            if end > limit + 1e-9 { break }
            kept += 1
            keptEnd = max(keptEnd, end)
        }
        tracks[video.trackID]!.keepFirst(kept)
        for template in others {
            let samples = tracks[template.trackID]!
            let ends = TrackTiming.shownEnds(samples, template: template)
            // A sample starts where it ends less its own length.
            let keep = (0..<samples.count).prefix { index in
                ends[index] - Double(samples.durations[index]) / Double(template.timescale) < keptEnd - 1e-9
            }.count
            tracks[template.trackID]!.keepFirst(keep)
            // A cue of timed text kept still showing past the picture's end ends with it.
            if template.handler != .soun, keep > 0, ends[keep - 1] > keptEnd + 1e-9 {
                let excess = UInt32(((ends[keep - 1] - keptEnd) * Double(template.timescale)).rounded())
                tracks[template.trackID]!.durations[keep - 1] -= min(excess, samples.durations[keep - 1] - 1)
            }
        }
    }
}
