import VidrecCore
import VidrecFFmpeg
import VidrecMedia
import VidrecSystem

/// `vidrec config [<command>] [-- <options>]`: the settings in effect, and where each
/// comes from: the config file (``ConfigFile``) or the command line.
struct ConfigCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let command = ArgumentKey.positional("command", optional: true, help: "Show only this command's settings: start, serve or upload; options after -- are read as its command line would be.")
    }

    static let spec = CommandSpec(
        name: "config",
        abstract: "Show the settings in effect from the config file, and where each comes from.",
        discussion: """
        The config file is $XDG_CONFIG_HOME/vidrec/config (~/.config/vidrec/config): a \
        [start], [serve], [upload] or [mqtt] section, each line key = value with the key a \
        long option without its dashes. The command line wins over the file. Each value \
        is checked as the option would be; a bad one is an error naming the file and the \
        line. Options after -- are taken as the command's command line, to see what a run \
        would use.
        """,
        arguments: [Key.command.spec],
        passesRest: true)

    var command: String?
    var rest: [String]

    init(_ arguments: ParsedArguments) throws(ParserError) {
        command = arguments[Key.command]
        rest = arguments.rest
        if let command, !ConfigFile.commandSections.contains(command) {
            throw .invalidValue(command, for: "<command>", reason: "the commands the file sets are start, serve and upload")
        }
        if command == nil, !rest.isEmpty { throw .missingArgument("<command>") }  // the options after -- are its
        // The options after -- as that command reads them, before the file is.
        if let command, let type = VidrecCLI.commands.first(where: { $0.spec.name == command }) {
            _ = try type.init(try CommandLineParser(spec: type.spec).parse(rest))
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let file = try context.configFile()
        if file == nil { context.err("vidrec: no config file at \(context.configPath): every setting comes from the command line\n") }
        let names = command.map { [$0] } ?? ConfigFile.commandSections
        for name in names {
            guard let type = VidrecCLI.commands.first(where: { $0.spec.name == name }) else { continue }
            let commandLine = try CommandLineParser(spec: type.spec).parse(rest)  // checked in init
            let configured = try ConfiguredArguments.merge(commandLine, command: type, file: file)
            do throws(ParserError) {
                _ = try type.init(configured.parsed)
            } catch {
                throw CLIError("vidrec \(name) would refuse these settings: \(error)", .usage)
            }
            context.out("[\(name)]\n")
            for line in Self.lines(configured) { context.out(line + "\n") }
        }
        return .success
    }

    /// `value` as messages show it: a stream key or a remote's keys shortened.
    static func shown(_ value: String, of name: String) -> String {
        switch name {
        case "live": LiveDestination.redacted(value)
        case "upload": RcloneRemote.redact(value)
        default: value
        }
    }

    /// `key = value  # origin` for each setting, by name.
    static func lines(_ configured: ConfiguredArguments) -> [String] {
        let parsed = configured.parsed
        var settings: [(String, String)] = parsed.options.map { ($0.key, $0.value) } + parsed.flags.map { ($0, "yes") }
        settings += parsed.repeated.flatMap { name, values in values.map { (name, $0) } }
        return settings.sorted { $0.0 < $1.0 }.map { name, value in
            let text = "\(name) = \(TextSafety.printable(shown(value, of: name)))"
            return text.padding(toLength: max(text.count, 40), withPad: " ", startingAt: 0) + "  # \(configured.origins[name] ?? "")"
        }
    }
}
