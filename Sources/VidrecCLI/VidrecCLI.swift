import CVidrecVersion
import Foundation
import VidrecCore
import VidrecFFmpeg
import VidrecMedia
import VidrecSystem

/// The `vidrec` program: dispatches to a subcommand and turns every outcome into
/// output and an exit status.
public enum VidrecCLI {
    /// The version printed by `--version`: the repository's VERSION file, built in.
    public static let version = String(cString: cvidrec_version()).trimmingCharacters(in: .whitespacesAndNewlines)

    static var commands: [any VidrecCommand.Type] { [
        StartCommand.self, StopCommand.self, SnapCommand.self, SwitchCommand.self] + RecordingControls.commands + [StatusCommand.self, SaveCommand.self, DiscardCommand.self,
        PendingCommand.self, RecoverCommand.self, PresetsCommand.self, DevicesCommand.self, ScheduleCommand.self, ServiceCommand.self, ListCommand.self, ShowCommand.self, SheetCommand.self, ControlsCommand.self, ServeCommand.self, UploadCommand.self, ConfigCommand.self, CompletionsCommand.self, ManualCommand.self,
    ] }

    static var helpSpec: CommandSpec {
        CommandSpec(name: "help", abstract: "Show help for vidrec or one of its subcommands.", discussion: "",
                    arguments: [subcommand.spec])
    }

    /// `vidrec help`'s argument.
    static let subcommand = ArgumentKey.positional("subcommand", optional: true, help: "The subcommand to explain.")

    static var allSpecs: [CommandSpec] { commands.map { $0.spec } + [helpSpec] }

    /// Runs `vidrec` with `arguments` (without the program name).
    ///
    /// - Returns: the exit status.
    public static func run(_ arguments: [String], context: CommandContext) -> Int32 {
        FFmpegLog.configure(level: context.paths.environment["VIDREC_FFMPEG_LOG"])
        guard let first = arguments.first else {
            context.out(UsageRenderer.rootHelp(allSpecs))
            return ExitCode.success.rawValue
        }
        switch first {
        case "--help", "-h":
            context.out(UsageRenderer.rootHelp(allSpecs))
            return ExitCode.success.rawValue
        case "--version":
            context.out("vidrec \(version) (FFmpeg \(EncoderCatalog().ffmpegVersion))\n")
            return ExitCode.success.rawValue
        case "help":
            return help(Array(arguments.dropFirst()), context)
        default:
            return run(first, Array(arguments.dropFirst()), context)
        }
    }

    /// `vidrec help [<subcommand>]`: the root help, or the subcommand's.
    private static func help(_ arguments: [String], _ context: CommandContext) -> Int32 {
        do {
            let parsed = try CommandLineParser(spec: helpSpec).parse(arguments)
            guard let name = parsed[subcommand] else {
                context.out(UsageRenderer.rootHelp(allSpecs))
                return ExitCode.success.rawValue
            }
            guard let spec = allSpecs.first(where: { $0.names.contains(name) }) else {
                throw ParserError.unknownCommand(name, suggestion: Suggestion.closest(to: name, in: allSpecs.map(\.name)))
            }
            context.out(UsageRenderer.help(spec))
            return ExitCode.success.rawValue
        } catch let error as ParserError {
            context.err(UsageRenderer.usageError(error, spec: helpSpec))
            return ExitCode.usage.rawValue
        } catch {
            return ExitCode.software.rawValue
        }
    }

    /// Runs the subcommand named `first` with `arguments`: a usage error for a name or
    /// an argument it does not know, else its exit status.
    private static func run(_ first: String, _ arguments: [String], _ context: CommandContext) -> Int32 {
        guard let command = commands.first(where: { $0.spec.names.contains(first) }) else {
            let error: ParserError = first.hasPrefix("-")
                ? .unknownOption(first, suggestion: Suggestion.closest(to: first, in: ["--help", "--version"]))
                : .unknownCommand(first, suggestion: Suggestion.closest(to: first, in: allSpecs.map(\.name)))
            context.err(UsageRenderer.usageError(error, spec: nil))
            return ExitCode.usage.rawValue
        }
        let instance: any VidrecCommand
        var configured: ConfiguredArguments?
        do {
            let parsed = try CommandLineParser(spec: command.spec).parse(arguments)
            if parsed.wantsHelp {
                context.out(UsageRenderer.help(command.spec))
                return ExitCode.success.rawValue
            }
            configured = try ConfiguredArguments.merge(parsed, command: command, file: try context.configFile())
            instance = try command.init(configured!.parsed)
        } catch let error as ConfigProblem {
            context.err("Error: \(TextSafety.printable(error.description))\n")
            return ExitCode.usage.rawValue
        } catch let error as ParserError {
            context.err(UsageRenderer.usageError(error, spec: command.spec))
            if configured?.usesFile == true {
                context.err("  Settings from \(context.configPath) apply too: 'vidrec config \(command.spec.name)' shows them.\n")
            }
            return ExitCode.usage.rawValue
        } catch {
            return ExitCode.software.rawValue
        }
        do {
            return try instance.run(context).rawValue
        } catch {
            let (message, code) = RuntimeFailure.classify(error)
            context.err("Error: \(TextSafety.printable(message))\n")
            return code.rawValue
        }
    }
}
