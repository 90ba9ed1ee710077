import Foundation
import Glibc
import VidrecSystem

/// The dates a recording writes (its ID, its sidecar's and its movie's start time),
/// made with the C library instead of Foundation's `DateFormatter` and
/// `ISO8601DateFormatter`. Those load ICU's locale and time-zone data at their first
/// use: about 5 MB of every recording's resident memory, for a few digits.
public enum DateText {
    /// `date` in local time (the `TZ` variable, or /etc/localtime) with `strftime`
    /// fields, such as `%Y%m%d-%H%M%S`. The corresponding C functions are `localtime_r`
    /// and `strftime`.
    ///
    /// - Returns: the text, or nil when it would be empty or longer than 511 bytes.
    public static func local(_ template: String, _ date: Date) -> String? {
        WallClock.localText(template, seconds: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// A recording's ID: `20261201-093015`, the local time to the second.
    public static func recordingID(_ date: Date) -> String {
        local("%Y%m%d-%H%M%S", date)!
    }

    /// ISO 8601 in UTC, as `ISO8601DateFormatter` writes it: `2026-12-01T09:30:15Z`, or
    /// with `milliseconds` `2026-12-01T09:30:15.250Z`. The corresponding C function is
    /// `gmtime_r`.
    public static func iso8601(_ date: Date, milliseconds: Bool = false) -> String {
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (seconds, fraction) = totalMilliseconds.quotientAndRemainder(dividingBy: 1000)
        var time = time_t(fraction < 0 ? seconds - 1 : seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        var text = "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))"
            + "T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
        if milliseconds {
            let millis = fraction < 0 ? fraction + 1000 : fraction
            text += "." + String(String(millis + 1000).dropFirst())
        }
        return text + "Z"
    }
}
