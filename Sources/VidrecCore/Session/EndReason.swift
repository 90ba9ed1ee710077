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
