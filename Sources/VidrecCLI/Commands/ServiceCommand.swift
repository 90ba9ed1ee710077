import Foundation
import VidrecCore
import VidrecMedia
import VidrecSystem

/// `vidrec service NAME [--install] -- START-OPTIONS`: print (or install) a systemd user
/// service that records continuously and restarts when the recording fails.
struct ServiceCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let name = ArgumentKey.positional("name", optional: false, help: "The unit's name, vidrec-NAME.service (letters, digits, - and _).")
        static let install = ArgumentKey.flag("install", help: "Write the unit into ~/.config/systemd/user.")
    }

    static let spec = CommandSpec(
        name: "service",
        abstract: "Print a systemd user service that records continuously (or install it).",
        discussion: """
        Example: vidrec service porch --install -- --camera /dev/video0 --quality low \
        --segment 600 --save. The unit vidrec-NAME.service runs vidrec start with those options \
        (checked now; an argument with a newline or other control character is refused), starts \
        with your session, restarts 10 s after the recording fails (a camera unplugged, a full \
        disk) but not after a usage error or a broken preset, and stops as vidrec stop does \
        (systemctl --user stop vidrec-NAME): what was recorded is kept. Its messages go to the \
        journal (journalctl --user -u vidrec-NAME). Keys and stream keys in --upload and --live \
        go into ~/.config/vidrec/vidrec-NAME.env (0600), which the unit names with \
        EnvironmentFile=, never into the unit. --install writes it into \
        ~/.config/systemd/user; enable it with systemctl --user enable --now vidrec-NAME, and \
        loginctl enable-linger for it to run when no one is logged in.
        """,
        arguments: [
            Key.name.spec,
            Key.install.spec,
        ],
        passesRest: true)

    var name: String
    var install: Bool
    var startArguments: [String]

    init(_ arguments: ParsedArguments) throws(ParserError) {
        name = arguments[Key.name] ?? ""
        install = arguments[Key.install]
        startArguments = arguments.rest
        guard SystemdUnit.isValidName(name) else {
            throw .invalidValue(name, for: "<name>", reason: SystemdUnit.nameRule)
        }
        // The options must be ones 'vidrec start' accepts.
        _ = try StartOptions(CommandLineParser(spec: StartOptions.spec).parse(startArguments))
        do {
            _ = try SystemdUnit.execLine(binary: "/", startArguments: startArguments)
        } catch {
            throw .invalidValue(error.argument, for: "<start-options>", reason: error.reason)
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let binary = URL(fileURLWithPath: context.executable).standardizedFileURL.path
        let secrets = CommandLineSecrets.systemdSecrets(startArguments, path: context.paths.configDirectory + "/vidrec-\(name).env")
        let service: SystemdUnit
        do {
            service = try SystemdUnit.recordingService(name: name, binary: binary, startArguments: secrets?.arguments ?? startArguments,
                                                       secrets: secrets)
        } catch {
            throw CLIError("cannot make the service for '\(TextSafety.printable(RcloneRemote.redact(error.argument)))': \(error.reason)", .usage)
        }
        return try SystemdUnitInstaller(units: [service], entryPoint: service.fileName, secrets: secrets).run(install: install, context)
    }
}
