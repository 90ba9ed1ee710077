extension CronSpec {
    /// The same schedule for a systemd timer, as `systemd-analyze calendar` reads it.
    ///
    /// Each field is written as the set of values cron would match (steps and lists
    /// spelled out, runs as `a..b`, weekdays by name). Cron fires when the day of the
    /// month *or* the day of the week matches if both are restricted (neither starts
    /// with `*`), and when both match otherwise; systemd matches every part of one
    /// expression, and any of several: the first case becomes two expressions.
    public var systemdSchedule: SystemdSchedule {
        switch text {
        case "@reboot": return .atStartup
        case "@yearly", "@annually": return .calendar(["*-01-01 00:00:00"])
        case "@monthly": return .calendar(["*-*-01 00:00:00"])
        case "@weekly": return .calendar(["Sun *-*-* 00:00:00"])
        case "@daily", "@midnight": return .calendar(["*-*-* 00:00:00"])
        case "@hourly": return .calendar(["*-*-* *:00:00"])
        default: break
        }
        let parts = text.split(separator: " ").map(String.init)
        let minute = Self.calendarField(Self.values(parts[0], 0...59, []), 0...59)
        let hour = Self.calendarField(Self.values(parts[1], 0...23, []), 0...23)
        let days = Self.values(parts[2], 1...31, [])
        let month = Self.calendarField(Self.values(parts[3], 1...12, Self.monthNames), 1...12)
        // Cron's 7 is Sunday too.
        let weekdays = Set(Self.values(parts[4], 0...7, Self.weekdayNames).map { $0 % 7 })
        let time = "\(hour):\(minute):00"
        let day = Self.calendarField(days, 1...31)
        let weekday = weekdays.count == 7 ? nil : weekdays.sorted().map { Self.systemdWeekdays[$0] }.joined(separator: ",")
        let dayRestricted = !parts[2].hasPrefix("*"), weekdayRestricted = !parts[4].hasPrefix("*")
        if dayRestricted && weekdayRestricted, let weekday {
            return .calendar(["\(weekday) *-\(month)-* \(time)", "*-\(month)-\(day) \(time)"])
        }
        return .calendar([(weekday.map { $0 + " " } ?? "") + "*-\(month)-\(day) \(time)"])
    }

    private static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdayNames = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
    private static let systemdWeekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// The values a checked cron field matches.
    private static func values(_ text: String, _ range: ClosedRange<Int>, _ names: [String]) -> Set<Int> {
        func value(_ token: Substring) -> Int {
            if let number = Int(token) { return number }
            return (names.firstIndex(of: token.lowercased()) ?? 0) + (range.lowerBound == 1 ? 1 : 0)
        }
        var result = Set<Int>()
        for item in text.split(separator: ",") {
            let pieces = item.split(separator: "/")
            let step = pieces.count == 2 ? Int(pieces[1]) ?? 1 : 1
            let ends = pieces[0].split(separator: "-")
            let low = pieces[0] == "*" ? range.lowerBound : value(ends[0])
            // `a/s` runs from a to the end of the range, as in cron.
            let high = pieces[0] == "*" ? range.upperBound : ends.count == 2 ? value(ends[1]) : pieces.count == 2 ? range.upperBound : low
            result.formUnion(stride(from: low, through: high, by: step))
        }
        return result
    }

    /// A set of values as a calendar component: `*` for all of `range`, else a list of
    /// values and `a..b` runs.
    private static func calendarField(_ values: Set<Int>, _ range: ClosedRange<Int>) -> String {
        if values == Set(range) { return "*" }
        let sorted = values.sorted()
        var pieces: [String] = []
        var start = sorted[0], previous = sorted[0]
        for value in sorted.dropFirst() + [Int.max] {
            if value == previous + 1 { previous = value; continue }
            pieces.append(start == previous ? "\(start)" : previous == start + 1 ? "\(start),\(previous)" : "\(start)..\(previous)")
            start = value
            previous = value
        }
        return pieces.joined(separator: ",")
    }
}
