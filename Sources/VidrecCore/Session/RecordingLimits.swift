/// Everything that can end a recording on its own, as on `AVCaptureMovieFileOutput`:
/// `maxRecordedDuration`, `maxRecordedFileSize` and `minFreeDiskSpaceLimit`.
public struct RecordingLimits: Sendable {
    /// `--max`: exact media duration.
    public var maxDuration: DurationLimit?
    /// `--max-size`: the finished file is at most this many bytes.
    public var maxFileSize: Int64?
    /// `--min-free`: stop before the file system being written has less free space.
    public var minFreeSpace: Int64?
    /// The bytes per second the preset is expected to produce, used for the safety
    /// margin until the real rate has been observed for a second.
    public var nominalBytesPerSecond: Int64
    /// For a continuous recording at the `--min-free` floor: removes the oldest closed
    /// segment vidrec made (never another file, never the open segment) and says
    /// whether it removed one, so that recording goes on; `nil` stops at the floor.
    public var reclaim: (@Sendable () -> Bool)?

    /// Creates limits.
    public init(maxDuration: DurationLimit? = nil, maxFileSize: Int64? = nil, minFreeSpace: Int64? = nil,
                nominalBytesPerSecond: Int64 = 500_000) {
        self.maxDuration = maxDuration
        self.maxFileSize = maxFileSize
        self.minFreeSpace = minFreeSpace
        self.nominalBytesPerSecond = nominalBytesPerSecond
    }

    /// The bytes still to reach the file once the session stops: what waits in the
    /// output's queue (`waitingSeconds` of media), what the encoder and the fragment being
    /// built hold (under a second of media), the trailer and the index. Until a second has
    /// been written the rate is the preset's nominal one, and the margin is at most half
    /// of `cap` (so a small limit still records).
    ///
    /// - Parameters:
    ///   - bytesWritten: bytes in the file.
    ///   - mediaSeconds: the media those bytes hold (what the output has taken).
    ///   - waitingSeconds: media placed but still waiting for the output.
    ///   - cap: the size limit, if any.
    public func closingMargin(bytesWritten: Int64, mediaSeconds: Double, waitingSeconds: Double = 0,
                              cap: Int64? = nil) -> Int64 {
        let rate = mediaSeconds >= 1 ? Double(bytesWritten) / mediaSeconds : Double(nominalBytesPerSecond)
        let margin = Int64(rate * (RecordingLimits.heldMediaSeconds + waitingSeconds)) + RecordingLimits.trailerBytes
            + bytesWritten / RecordingLimits.indexShare
        if mediaSeconds < 1, let cap { return min(margin, cap / 2) }
        return margin
    }

    /// Media the encoder and the fragment being built hold at most, in seconds.
    public static let heldMediaSeconds = 1.0
    /// Room for the trailer and the last fragment's boxes.
    public static let trailerBytes: Int64 = 16_384
    /// The index written at the end takes at most one byte in this many of the file.
    public static let indexShare: Int64 = 50
}
