import Foundation
import VidrecMedia

/// Renders usage lines, help pages and usage errors, in swift-argument-parser's layout.
public struct UsageRenderer: Sendable {
    /// The program name shown in messages.
    public static let program = "vidrec"

    /// What vidrec does, in one sentence.
    public static let overview = "Record video from a camera and microphone into movie files, then save them to an album."

    /// `Usage: vidrec start [--camera <camera>] … [<id>]`
    public static func usage(_ spec: CommandSpec) -> String {
        var parts = ["\(program) \(spec.name)"]
        for argument in spec.arguments {
            switch argument.kind {
            case .positional(let optional): parts.append(optional ? "[\(argument.synopsis)]" : argument.synopsis)
            default: parts.append("[\(argument.synopsis)\(argument.isRepeatable ? " ..." : "")]")
            }
        }
        return "Usage: " + parts.joined(separator: " ")
    }

    /// The full `--help` page of a subcommand.
    public static func help(_ spec: CommandSpec) -> String {
        var lines = ["OVERVIEW: \(spec.abstract)", ""]
        if !spec.discussion.isEmpty { lines += [spec.discussion, ""] }
        lines.append(usage(spec).replacingFirst("Usage: ", with: "USAGE: "))
        let positionals = spec.arguments.filter { if case .positional = $0.kind { true } else { false } }
        if !positionals.isEmpty {
            lines += ["", "ARGUMENTS:"]
            for argument in positionals { lines.append(row(argument.synopsis, argument.help)) }
        }
        lines += ["", "OPTIONS:"]
        for argument in spec.arguments where !positionals.contains(where: { $0.name == argument.name }) {
            let short = argument.short.map { "-\($0), " } ?? ""
            lines.append(row(short + argument.synopsis, argument.help))
        }
        lines.append(row("-h, --help", "Show help information."))
        return lines.joined(separator: "\n") + "\n"
    }

    /// The top-level `vidrec --help` page.
    public static func rootHelp(_ commands: [CommandSpec]) -> String {
        var lines = [
            "OVERVIEW: \(overview)",
            "",
            "USAGE: \(program) <subcommand>",
            "",
            "OPTIONS:",
            row("--version", "Show the version."),
            row("-h, --help", "Show help information."),
            "",
            "SUBCOMMANDS:",
        ]
        for command in commands {
            lines.append(row(([command.name] + command.aliases).joined(separator: ", "), command.abstract))
        }
        lines += ["", "  See '\(program) help <subcommand>' for detailed help."]
        return lines.joined(separator: "\n") + "\n"
    }

    /// `Error: …`, the usage, and where to read more: what a usage error prints.
    public static func usageError(_ error: ParserError, spec: CommandSpec?) -> String {
        let usageLine = spec.map(usage) ?? "Usage: \(program) <subcommand>"
        let helpCommand = spec.map { "\(program) \($0.name) --help" } ?? "\(program) --help"
        return "Error: \(TextSafety.printable(error.description))\n\(usageLine)\n  See '\(helpCommand)' for more information.\n"
    }

    private static func row(_ left: String, _ right: String) -> String {
        let padded = left.count < 26 ? left + String(repeating: " ", count: 26 - left.count) : left + "\n" + String(repeating: " ", count: 28)
        return "  " + padded + right
    }
}
