import VidrecMedia
import VidrecSystem

/// A crontab line that runs `vidrec start`, built so that no argument can change what
/// cron runs: every argument quoted for the shell cron uses, `%` escaped (cron turns a
/// bare `%` into a newline), and anything neither quoting nor escaping can carry through
/// cron refused.
public struct CronLine: Sendable, Equatable {
    /// The whole line, as it goes into the crontab (no newline).
    public let text: String

    /// The longest command cron reads whole (Vixie cron's `MAX_COMMAND`, less the NUL).
    public static let maximumCommandBytes = 999

    /// Builds the line that runs `binary start arguments…` at `spec`.
    ///
    /// - Throws: ``Refused`` naming the argument cron would mangle and why.
    public init(spec: CronSpec, binary: String, startArguments: [String]) throws(Refused) {
        for argument in [binary] + startArguments {
            try CronLine.check(argument)
        }
        let command = ([binary, "start"] + startArguments).map(CronLine.quote).joined(separator: " ")
        guard command.utf8.count <= CronLine.maximumCommandBytes else {
            throw Refused(argument: nil, reason: "the command would be \(command.utf8.count) bytes, and cron reads at most \(CronLine.maximumCommandBytes); put the options in a preset file (--quality FILE) or a shorter --log path")
        }
        text = spec.text + " " + command
    }

    /// Quotes one argument for /bin/sh, and escapes `%`, which cron turns into newlines.
    /// Both work on Unicode scalars, as the shell and cron read bytes: a `'` or `%` joined
    /// to a combining mark is one Swift `Character`, but still a quote or a `%` to them.
    public static func quote(_ argument: String) -> String {
        var quoted = String.UnicodeScalarView()
        if TextSafety.isPlainWord(argument) {
            quoted = argument.unicodeScalars
        } else {
            quoted.append("'")
            for scalar in argument.unicodeScalars {
                if scalar == "'" { quoted.append(contentsOf: "'\\''".unicodeScalars) } else { quoted.append(scalar) }
            }
            quoted.append("'")
        }
        var escaped = String.UnicodeScalarView()
        for scalar in quoted {
            if scalar == "%" { escaped.append("\\") }
            escaped.append(scalar)
        }
        return String(escaped)
    }

    /// Refuses what cron would mangle: a control character (a newline ends the crontab
    /// line and starts another, which cron runs), and a backslash right before `%`
    /// (cron's `\%` rule would eat it).
    static func check(_ argument: String) throws(Refused) {
        if TextSafety.hasControlCharacters(argument) {
            throw Refused(argument: argument, reason: "it holds a control character (a newline, tab or escape), which would end or change the crontab line; remove it")
        }
        if argument.utf8.split(separator: UInt8(ascii: "%"), omittingEmptySubsequences: false).dropLast().contains(where: { $0.last == UInt8(ascii: "\\") }) {
            throw Refused(argument: argument, reason: "cron reads a backslash before '%' as an escape and drops it; remove the backslash")
        }
    }

    /// Why a crontab line was not built.
    public struct Refused: Error, Sendable, Equatable {
        /// The argument at fault, if one is.
        public var argument: String?
        /// What is wrong and what to do.
        public var reason: String
    }
}

extension CronLine.Refused: ExitCoded {
    public var exitCode: ExitCode { .usage }
}
