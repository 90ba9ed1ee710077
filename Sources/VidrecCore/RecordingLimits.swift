/// Everything that can end a recording on its own, as on `AVCaptureMovieFileOutput`:
/// `maxRecordedDuration`, `maxRecordedFileSize` and `minFreeDiskSpaceLimit`.
public struct RecordingLimits: Sendable {
    /// `--max`: exact media duration.
    public var duration: DurationLimit?
    /// `--max-size`: the finished file is at most this many bytes.
    public var maxFileSize: Int64?
    /// `--min-free`: stop before the file system being written has less free space.
    public var minFreeSpace: Int64?
    /// The bytes per second the preset is expected to produce, used for the safety
    /// margin until the real rate has been observed for a second.
    public var nominalBytesPerSecond: Int64

    /// Creates limits.
    public init(duration: DurationLimit? = nil, maxFileSize: Int64? = nil, minFreeSpace: Int64? = nil,
                nominalBytesPerSecond: Int64 = 500_000) {
        self.duration = duration
        self.maxFileSize = maxFileSize
        self.minFreeSpace = minFreeSpace
        self.nominalBytesPerSecond = nominalBytesPerSecond
    }

    /// The bytes still to reach the file once the session stops: what the encoder and
    /// the fragment being built hold (under a second of media), the trailer and the
    /// index. Until a second has been recorded the rate is the preset's nominal one,
    /// and the margin is at most half of `cap` (so a small limit still records).
    public func closingMargin(bytesWritten: Int64, mediaSeconds: Double, cap: Int64? = nil) -> Int64 {
        let rate = mediaSeconds >= 1 ? Double(bytesWritten) / mediaSeconds : Double(nominalBytesPerSecond)
        let margin = Int64(rate * 1.0) + 16_384 + bytesWritten / 50
        if mediaSeconds < 1, let cap { return min(margin, cap / 2) }
        return margin
    }
}
