import VidrecMedia
import VidrecSystem

/// The `vidrec(1)` manual page, in roff with the `man` macros, rendered from the same
/// ``CommandSpec``s as `--help` (one source for every option's text), the built-in
/// presets, ``ExitCode/meaning`` and ``ManualReference``.
///
/// Each paragraph is one input line; every `-` is `\-` and every `'` is `\(aq` so that
/// options and quotes print as typed, and characters beyond ASCII are named glyphs
/// (`\[u2026]`), so that `groff -man -ww` has nothing to warn about in any locale.
struct ManualPage {
    /// A built-in preset as the PRESETS section lists it.
    struct PresetEntry {
        var name: String
        var settings: String
        var summary: String
    }

    var version: String
    var overview: String
    var commands: [CommandSpec]
    var presets: [PresetEntry]

    /// The page's roff source.
    func render() -> String {
        var page = header()
        for command in commands { page += Self.section(command) }
        page.append(".SH PRESETS")
        page.append(Self.escape("--quality takes one of these names, or the path of a preset file. Your own presets, JSON files in ~/.config/vidrec/presets, override built-in ones of the same name; 'vidrec presets' lists what each resolves to on this machine."))
        for preset in presets {
            page.append(".TP")
            page.append(".B \(Self.escape(preset.name))")
            page.append(Self.escape(preset.summary.isEmpty ? preset.settings : "\(preset.settings). \(preset.summary)"))
        }
        page += Self.reference()
        return page.joined(separator: "\n") + "\n"
    }

    /// The title, name, synopsis and description, up to the commands' heading.
    private func header() -> [String] {
        [
            ".TH VIDREC 1 \"\" \"vidrec \(Self.escape(version))\" \"User Commands\"",
            ".SH NAME",
            "vidrec \\- \(Self.escape(overview.prefix(1).lowercased() + overview.dropFirst().dropLast(overview.hasSuffix(".") ? 1 : 0)))",
            ".SH SYNOPSIS",
            ".B vidrec",
            ".I subcommand",
            ".RI [ options ]",
            ".br",
            ".B vidrec",
            ".RB [ \\-\\-version | \\-\\-help ]",
            ".SH DESCRIPTION",
            Self.escape("vidrec records a camera (V4L2) and a microphone (ALSA) into a movie file, using FFmpeg's libraries, with a quality preset choosing the size, frame rate, codecs and bit rates. A recording is written to the pending area as it is made, stays playable if vidrec is killed, and ends at exactly the length asked for; 'vidrec save' commits it to the album."),
            ".PP",
            Self.escape("Every subcommand takes -h or --help. Options take their value as '--name value' or '--name=value'; a wrong command line prints 'Error:', the usage and a hint on stderr and exits with 64."),
            ".SH COMMANDS",
        ]
    }

    /// A subcommand's section: its usage, what it does and each argument.
    private static func section(_ command: CommandSpec) -> [String] {
        var lines = [".SS \(escape(command.name))\(command.aliases.isEmpty ? "" : " (also: \(escape(command.aliases.joined(separator: ", "))))")"]
        lines.append(escape(UsageRenderer.usage(command).replacingFirst("Usage: ", with: "")))
        lines.append(".PP")
        lines.append(escape(command.abstract))
        if !command.discussion.isEmpty {
            lines.append(".PP")
            lines.append(escape(command.discussion))
        }
        for argument in command.arguments {
            lines += [".TP", term(argument), escape(argument.help)]
        }
        return lines
    }

    /// The files, the environment, the exit statuses, the examples and what to see also.
    private static func reference() -> [String] {
        var page = [".SH FILES"]
        for entry in ManualReference.files {
            page += [".TP", escape(entry.what), markdown(entry.place)]
        }
        page.append(".SH ENVIRONMENT")
        for entry in ManualReference.environment {
            page += [".TP", ".B \(escape(entry.name))", markdown(entry.meaning)]
        }
        page.append(".SH EXIT STATUS")
        for code in ExitCode.allCases {
            page += [".TP", ".B \(code.rawValue)", markdown(code.meaning)]
        }
        page.append(".SH EXAMPLES")
        for example in ManualReference.examples {
            page += [".PP", escape(example.what), ".PP", ".RS", ".nf"]
            page += example.command.split(separator: "\n").map { escape(String($0)) }
            page += [".fi", ".RE"]
        }
        page += [
            ".SH SEE ALSO",
            ".BR ffmpeg (1),",
            ".BR v4l2\\-ctl (1),",
            ".BR arecord (1),",
            ".BR rclone (1),",
            ".BR crontab (5)",
        ]
        return page
    }

    /// An option's tag line: `-q, --quality preset`, the option bold and its value italic.
    static func term(_ argument: ArgumentSpec) -> String {
        let short = argument.short.map { "\\fB\\-\(escape(String($0)))\\fR, " } ?? ""
        switch argument.kind {
        case .option(let value):
            return short + "\\fB\\-\\-\(escape(argument.name))\\fR \\fI\(escape(value))\\fR" + (argument.isRepeatable ? " .\\|.\\|." : "")
        case .flag:
            return short + "\\fB\\-\\-\(escape(argument.name))\\fR"
        case .positional:
            return "\\fI\(escape(argument.name))\\fR"
        }
    }

    /// `text` made safe as roff input: a backslash printed as such, `-` and `'` as typed,
    /// no control line made by a leading `.` or `'`, and non-ASCII as named glyphs.
    static func escape(_ text: some StringProtocol) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            case "'": out += "\\(aq"
            case "\n": out += " "
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += " "
            case _ where scalar.value > 0x7E:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\[u\(String(repeating: "0", count: max(0, 4 - hex.count)))\(hex)]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out.hasPrefix(".") ? "\\&" + out : out
    }

    /// Markdown text with code spans: the spans bold, the rest escaped (``escape(_:)``
    /// guards each piece against starting a control line).
    static func markdown(_ text: String) -> String {
        var out = ""
        for (index, piece) in text.split(separator: "`", omittingEmptySubsequences: false).enumerated() {
            out += index % 2 == 1 ? "\\fB\(escape(piece))\\fR" : escape(piece)
        }
        return out
    }
}
