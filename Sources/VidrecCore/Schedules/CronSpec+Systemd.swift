extension CronSpec {
    /// The same schedule for a systemd timer, as `systemd-analyze calendar` reads it.
    ///
    /// Each field is written as the set of values cron matches (``fieldValues``, steps
    /// and lists spelled out), runs as `a..b`, weekdays by name. Cron fires when the day
    /// of the month *or* the day of the week matches if both are restricted (neither
    /// starts with `*`), and when both match otherwise; systemd matches every part of one
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
        let parts = text.split(separator: " ")
        let minute = Self.calendarField(fieldValues[0], 0...59)
        let hour = Self.calendarField(fieldValues[1], 0...23)
        let month = Self.calendarField(fieldValues[3], 1...12)
        // Cron's 7 is Sunday too.
        let weekdays = Set(fieldValues[4].map { $0 % 7 })
        let time = "\(hour):\(minute):00"
        let day = Self.calendarField(fieldValues[2], 1...31)
        let weekday = weekdays.count == 7 ? nil : weekdays.sorted().map { Self.systemdWeekdays[$0] }.joined(separator: ",")
        let dayRestricted = !parts[2].hasPrefix("*"), weekdayRestricted = !parts[4].hasPrefix("*")
        if dayRestricted && weekdayRestricted, let weekday {
            return .calendar(["\(weekday) *-\(month)-* \(time)", "*-\(month)-\(day) \(time)"])
        }
        return .calendar([(weekday.map { $0 + " " } ?? "") + "*-\(month)-\(day) \(time)"])
    }

    private static let systemdWeekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

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
