import Foundation
import Testing
import VidrecCore

/// A cron specification and its systemd timer fire at the same minutes: checked against
/// systemd's own `systemd-analyze calendar`, with a day-by-day reading of cron's
/// rules (day of month or day of week when both are restricted) as the reference.
@Suite struct SystemdScheduleTests {
    /// Whether a cron field matches `value` (lists, ranges, steps, names).
    static func matches(_ field: String, _ value: Int, _ low: Int, _ high: Int, _ names: [String] = []) -> Bool {
        field.split(separator: ",").contains { item in
            let parts = item.split(separator: "/")
            let step = parts.count == 2 ? Int(parts[1])! : 1
            func number(_ text: Substring) -> Int {
                Int(text) ?? (names.firstIndex(of: String(text).lowercased())! + (low == 1 ? 1 : 0))
            }
            let bounds = parts[0].split(separator: "-")
            let from = parts[0] == "*" ? low : number(bounds[0])
            let to = parts[0] == "*" ? high : bounds.count == 2 ? number(bounds[1]) : parts.count == 2 ? high : from
            return value >= from && value <= to && (value - from) % step == 0
        }
    }

    /// Cron's rules for a day (UTC): the month matches, and the day of the month *or*
    /// of the week when both are restricted, both otherwise.
    static func cronFires(_ fields: [String], on day: Date) -> Bool {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.day, .month, .weekday], from: day)
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        let days = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        let weekday = c.weekday! - 1
        let dayMatches = matches(fields[2], c.day!, 1, 31)
        let weekdayMatches = matches(fields[4], weekday, 0, 7, days) || (weekday == 0 && matches(fields[4], 7, 0, 7, days))
        let dayFires = fields[2].hasPrefix("*") || fields[4].hasPrefix("*") ? dayMatches && weekdayMatches : dayMatches || weekdayMatches
        return matches(fields[3], c.month!, 1, 12, months) && dayFires
    }

    /// The first `count` minutes after `base` (a midnight) at which cron fires `spec`,
    /// within `days` days: cron's rules read day by day, then hour and minute.
    static func cronTimes(_ spec: String, after base: Date, count: Int, days: Int) -> [Date] {
        let fields = spec.split(separator: " ").map(String.init)
        var times: [Date] = []
        for d in 0..<days {
            let day = base.addingTimeInterval(Double(d) * 86_400)
            guard cronFires(fields, on: day) else { continue }
            for hour in 0..<24 where matches(fields[1], hour, 0, 23) {
                for minute in 0..<60 where matches(fields[0], minute, 0, 59) && (d > 0 || hour > 0 || minute > 0) {
                    times.append(day.addingTimeInterval(Double(hour * 3600 + minute * 60)))
                    if times.count == count { return times }
                }
            }
        }
        return times
    }

    /// The next `count` times systemd's expressions elapse after `base`, merged.
    static func systemdElapses(_ expressions: [String], after base: Date, count: Int) throws -> [Date] {
        var all: [Date] = []
        for expression in expressions {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-analyze")
            let stamp = ISO8601DateFormatter().string(from: base).replacingOccurrences(of: "T", with: " ").replacingOccurrences(of: "Z", with: " UTC")
            process.arguments = ["calendar", "--iterations=\(count)", "--base-time=\(stamp)", expression]
            process.environment = ["TZ": "UTC", "LANG": "C"]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "systemd-analyze calendar '\(expression)': \(text)")
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = "EEE yyyy-MM-dd HH:mm:ss zzz"
            // Later elapses are "Iter. #2:" up to systemd 252 (Debian 12), "Iteration #2:"
            // from systemd 257 (Debian 13).
            for line in text.split(separator: "\n")
            where line.contains("Next elapse:") || line.contains("Iter. #") || line.contains("Iteration #") {
                let value = line.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
                if let date = formatter.date(from: value) { all.append(date) }
            }
        }
        return Array(Set(all).sorted().prefix(count))
    }

    @Test(arguments: [
        "*/15 * * * *", "0 9-17 * * mon-fri", "30 2 1 * *", "0 0 1,15 * 5", "5-20/5 */3 * jan,jul *",
        "0 12 * * 7", "0 12 * * 0", "59 23 31 12 *", "0 0 13 * fri", "1,2,3,10-12 4 */10 * *",
    ])
    func aTimerFiresAtTheMinutesCronWould(_ spec: String) throws {
        let cron = try CronSpec(spec)
        guard case .calendar(let expressions) = cron.systemdSchedule else {
            Issue.record("\(spec) is not a calendar schedule")
            return
        }
        let base = Date(timeIntervalSince1970: 1_798_761_600)  // 2027-01-01 00:00 UTC, a Friday
        // The first 12 times cron fires within 800 days (fewer for a yearly job), and
        // systemd's up to the last of those (or to the end of the 800 days).
        let window = base.addingTimeInterval(800 * 86_400)
        let expected = Self.cronTimes(spec, after: base, count: 12, days: 800)
        let end = expected.count == 12 ? expected[11] : window
        let got = try Self.systemdElapses(expressions, after: base, count: 12).filter { $0 <= end }
        #expect(got == expected, "\(spec) → \(expressions)")
        #expect(!expected.isEmpty)
    }

    @Test func shortcutsAndRebootHaveTheirOwnSchedules() throws {
        #expect(try CronSpec("@reboot").systemdSchedule == .atStartup)
        #expect(try CronSpec("@hourly").systemdSchedule == .calendar(["*-*-* *:00:00"]))
        #expect(try CronSpec("@weekly").systemdSchedule == .calendar(["Sun *-*-* 00:00:00"]))
    }
}
