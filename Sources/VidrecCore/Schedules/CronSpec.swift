import VidrecMedia
import VidrecSystem

/// The time part of a crontab line, checked the way cron reads it: five fields
/// (minute, hour, day of month, month, day of week) or one of the `@` shortcuts.
///
/// Each field is a comma-separated list of `*`, a value or a range `a-b`, each
/// optionally followed by `/step`; months and weekdays also take names (`jan`, `mon`).
public struct CronSpec: Sendable, Equatable {
    /// The text, as it goes into the crontab.
    public let text: String
    /// The values each of the five fields matches (steps and lists spelled out, names as
    /// numbers, a weekday 7 kept as 7); empty for an `@` shortcut.
    let fieldValues: [Set<Int>]

    /// The `@` shortcuts cron understands.
    public static let shortcuts = ["@reboot", "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"]

    private static let fields: [(name: String, range: ClosedRange<Int>, names: [String])] = [
        ("minute", 0...59, []),
        ("hour", 0...23, []),
        ("day-of-month", 1...31, []),
        ("month", 1...12, ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]),
        ("day-of-week", 0...7, ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]),
    ]

    /// Parses `text`.
    ///
    /// - Throws: ``Invalid`` naming the field and what it takes.
    public init(_ text: String) throws(Invalid) {
        if TextSafety.hasControlCharacters(text) {
            throw Invalid(reason: "it holds a control character (a newline or tab), which would end the crontab line; separate the fields with spaces")
        }
        let trimmed = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        self.text = trimmed
        if trimmed.hasPrefix("@") {
            guard CronSpec.shortcuts.contains(trimmed) else {
                throw Invalid(reason: "'\(trimmed)' is not a cron shortcut; use one of \(CronSpec.shortcuts.joined(separator: ", "))")
            }
            fieldValues = []
            return
        }
        let parts = trimmed.split(separator: " ").map(String.init)
        guard parts.count == 5 else {
            throw Invalid(reason: "give five fields (minute hour day-of-month month day-of-week), not \(parts.count)")
        }
        var values: [Set<Int>] = []
        for (part, field) in zip(parts, CronSpec.fields) {
            values.append(try CronSpec.values(part, field.name, field.range, field.names))
        }
        fieldValues = values
    }

    /// Checks one field and returns the values it matches: `a/s` runs from a to the end
    /// of the range, as in cron.
    private static func values(_ text: String, _ name: String, _ range: ClosedRange<Int>,
                               _ names: [String]) throws(Invalid) -> Set<Int> {
        let what = "\(name) field '\(text)': use \(range.lowerBound)-\(range.upperBound)\(names.isEmpty ? "" : " or names such as \(names[1])"), '*', a range, a list or a step such as */15"
        func value(_ token: Substring) -> Int? {
            if let number = Int(token), range.contains(number) { return number }
            if let index = names.firstIndex(of: token.lowercased()) { return index + (range.lowerBound == 1 ? 1 : 0) }
            return nil
        }
        var result = Set<Int>()
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pieces = item.split(separator: "/", omittingEmptySubsequences: false)
            guard pieces.count <= 2 else { throw Invalid(reason: what) }
            var step = 1
            if pieces.count == 2 {
                guard let given = Int(pieces[1]), given >= 1, given <= range.upperBound + 1 else { throw Invalid(reason: what) }
                step = given
            }
            let base = pieces[0]
            if base == "*" {
                result.formUnion(stride(from: range.lowerBound, through: range.upperBound, by: step))
                continue
            }
            let ends = base.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count <= 2, let low = value(ends[0]) else { throw Invalid(reason: what) }
            var high = pieces.count == 2 ? range.upperBound : low
            if ends.count == 2 {
                guard let end = value(ends[1]), low <= end else { throw Invalid(reason: what) }
                high = end
            }
            result.formUnion(stride(from: low, through: high, by: step))
        }
        return result
    }

    /// Why a cron specification was refused.
    public struct Invalid: Error, Sendable, Equatable {
        /// What is wrong and what is allowed.
        public var reason: String
    }
}

extension CronSpec.Invalid: ExitCoded {
    /// A cron specification vidrec cannot read is a usage error (the parser reports it).
    public var exitCode: ExitCode { .usage }
}
