import Glibc

/// CLOCK_REALTIME, the wall clock: for what a person reads (a time burned into the
/// picture, a file's date), never for media timestamps (``MonotonicClock``).
public enum WallClock {
    /// Now, in nanoseconds since 1970. The corresponding C function is `clock_gettime`.
    public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// The wall-clock time of `monotonic`, a time on ``MonotonicClock`` (a capture
    /// time), in nanoseconds since 1970: the two clocks' difference now, added. A clock
    /// set since then (NTP) moves it by as much.
    public static func time(ofMonotonic monotonic: Int64) -> Int64 {
        monotonic + (now() - MonotonicClock.now())
    }

    /// `seconds` since 1970 in local time (the `TZ` variable, or /etc/localtime) with
    /// `strftime` fields, such as `%Y%m%d-%H%M%S`. The corresponding C functions are
    /// `localtime_r` and `strftime`.
    ///
    /// - Returns: the text, or nil when it would be empty or longer than 511 bytes.
    public static func localText(_ template: String, seconds: Int64) -> String? {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return nil }
        var buffer = [CChar](repeating: 0, count: 512)
        guard strftime(&buffer, buffer.count, template, &parts) > 0 else { return nil }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
