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
    /// the fragment being built hold (about 1.5 s of media), the trailer and the index.
    public func closingMargin(bytesWritten: Int64, mediaSeconds: Double) -> Int64 {
        let observed = mediaSeconds >= 1 ? Double(bytesWritten) / mediaSeconds : 0
        let rate = max(observed, Double(nominalBytesPerSecond))
        return Int64(rate * 1.5) + 65_536 + bytesWritten / 50
    }
}
