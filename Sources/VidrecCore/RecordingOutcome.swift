import VidrecMedia

/// Why a recording ended.
public enum EndReason: Sendable, Equatable {
    /// `--max` was reached: success.
    case maximumDuration(DurationLimit)
    /// `--max-size` was reached: success.
    case maximumFileSize(Int64)
    /// The user (or `vidrec stop`, or a signal) asked it to stop: success.
    case stopped
    /// The file system fell to the `--min-free` floor; the recording so far is kept,
    /// but this is not a success (exit status 74).
    case lowDiskSpace(free: Int64, floor: Int64)
    /// A source or the output failed; what was recorded so far is kept.
    case failed(String)

    /// Whether the recording counts as a success (exit status 0).
    public var isSuccess: Bool {
        switch self {
        case .failed, .lowDiskSpace: false
        default: true
        }
    }

    /// One line for the user.
    public var message: String {
        switch self {
        case .maximumDuration(let limit): "reached maximum duration (\(limit))"
        case .maximumFileSize(let bytes): "reached maximum file size (\(ByteCount.format(bytes)))"
        case .stopped: "stopped"
        case let .lowDiskSpace(free, floor):
            "stopped early: only \(ByteCount.format(free)) free, and the floor is \(ByteCount.format(floor)) (--min-free); free space, or record to another disk"
        case .failed(let reason): reason
        }
    }
}

/// What a capture session produced.
public struct RecordingOutcome: Sendable {
    /// Why it ended.
    public var reason: EndReason
    /// The error behind a `.failed` reason, for choosing an exit code.
    public var error: (any Error)?
    /// Video frames written.
    public var videoFrames: Int64
    /// Audio frames (samples per channel) written, at the source's rate.
    public var audioFrames: Int64
    /// Duration of the video stream: frame slots up to and including the last frame.
    public var duration: Rational
    /// Frames the camera skipped (gaps in the frame grid or sequence numbers).
    public var droppedFrames: Int64
    /// Frames vidrec itself dropped because the encoder could not keep up.
    public var queueDroppedFrames: Int64
    /// Audio frames of silence inserted for gaps in the microphone's stream.
    public var insertedSilence: Int64
    /// Bytes in the file.
    public var bytes: Int64
}

/// A snapshot of a running recording, for the status line.
public struct SessionProgress: Sendable {
    /// Media time recorded so far, in seconds.
    public var elapsed: Double
    /// Video frames written.
    public var videoFrames: Int64
    /// Frames per second written over the last interval.
    public var framesPerSecond: Double
    /// Bytes in the file.
    public var bytes: Int64
    /// Frames dropped so far (by the camera or by vidrec).
    public var droppedFrames: Int64
}
