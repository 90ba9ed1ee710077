/// One track's samples as the fragments describe them, in decode order, with what an
/// index needs of each: where its bytes are, how large, when it is decoded and shown,
/// and whether a decoder can start there.
struct TrackSamples: Sendable {
    /// The track's `track_ID`.
    let trackID: UInt32
    /// Decode times, in the track's media time scale.
    var decodeTimes: [Int64] = []
    /// How long each sample lasts in decode time (the gap to the next one).
    var durations: [UInt32] = []
    /// Bytes of each sample.
    var sizes: [UInt32] = []
    /// Where each sample's bytes start in the file.
    var offsets: [Int64] = []
    /// Presentation time minus decode time.
    var compositionOffsets: [Int32] = []
    /// Whether each sample is a sync sample (a keyframe).
    var isSync: [Bool] = []

    init(trackID: UInt32) { self.trackID = trackID }

    var count: Int { decodeTimes.count }

    /// Keeps the first `count` samples.
    mutating func keepFirst(_ count: Int) {
        let drop = self.count - count
        guard drop > 0 else { return }
        decodeTimes.removeLast(drop)
        durations.removeLast(drop)
        sizes.removeLast(drop)
        offsets.removeLast(drop)
        compositionOffsets.removeLast(drop)
        isSync.removeLast(drop)
    }

    mutating func append(decodeTime: Int64, duration: UInt32, size: UInt32, offset: Int64,
                         compositionOffset: Int32, isSync sync: Bool) {
        decodeTimes.append(decodeTime)
        durations.append(duration)
        sizes.append(size)
        offsets.append(offset)
        compositionOffsets.append(compositionOffset)
        isSync.append(sync)
    }
}
