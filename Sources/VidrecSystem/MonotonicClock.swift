import Glibc

/// CLOCK_MONOTONIC in nanoseconds: the one clock that capture timestamps use.
///
/// V4L2 buffer timestamps and ALSA status timestamps are taken on this clock, so the
/// test sources stamp their frames on it too. Media timestamps are derived from the
/// difference between capture times, never from the wall clock.
public enum MonotonicClock {
    /// Now, in nanoseconds. The corresponding C function is `clock_gettime`.
    public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// Sleeps until `deadline` (nanoseconds on CLOCK_MONOTONIC), resuming after signals.
    /// The corresponding C function is `clock_nanosleep` with `TIMER_ABSTIME`.
    public static func sleep(until deadline: Int64) {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }
}
