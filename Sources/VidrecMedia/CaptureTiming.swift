/// The time spans that capture, the session and the outputs wait on, in one place, as
/// Swift's `Duration`. Instants stay nanoseconds on CLOCK_MONOTONIC (``MonotonicClock``),
/// the clock that capture timestamps use.
public enum CaptureTiming {
    /// How long a camera or microphone may deliver nothing before it counts as gone
    /// (the device's own wait, and the session's).
    public static let stallTimeout: Duration = .seconds(5)
    /// How often a device's capture loop wakes to notice a stop.
    public static let wakeInterval: Duration = .milliseconds(100)
    /// How often the session reports progress (the status line, `vidrec status`).
    public static let progressInterval: Duration = .milliseconds(500)
    /// How often the session checks the free space for `--min-free`.
    public static let freeSpaceInterval: Duration = .seconds(1)
    /// How often the movie file is synced to disk while recording.
    public static let syncInterval: Duration = .seconds(1)
    /// How long the session waits, after video has ended, for audio to reach it.
    public static let audioGrace: Duration = .seconds(1)
}

extension Duration {
    /// Nanoseconds per second, for converting capture timestamps.
    public static let nanosecondsPerSecond: Int64 = 1_000_000_000

    /// The span in whole nanoseconds (rounded down), for comparing with timestamps.
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * Duration.nanosecondsPerSecond + attoseconds / 1_000_000_000
    }

    /// The span in whole milliseconds, for `poll` and ALSA timeouts.
    public var milliseconds: Int32 { Int32(nanoseconds / 1_000_000) }

    /// The span in whole seconds, for messages.
    public var wholeSeconds: Int64 { components.seconds }
}
