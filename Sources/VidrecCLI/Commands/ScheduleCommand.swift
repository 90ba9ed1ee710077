import Dispatch
import Foundation
import Synchronization
import VidrecCore
import VidrecMedia
import VidrecSystem

/// `vidrec schedule 'CRON-SPEC' [--systemd] -- START-OPTIONS`: print (or install) the
/// crontab line, or the systemd user timer and service, that runs `vidrec start` with
/// those options.
struct ScheduleCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let cronSpec = ArgumentKey.positional("cron-spec", optional: false, help: "Five cron fields: minute hour day-of-month month day-of-week (or @hourly, @daily, @reboot, …).")
        static let install = ArgumentKey.flag("install", help: "Add the line to your crontab (once); with --systemd, write the units.")
        static let systemd = ArgumentKey.flag("systemd", help: "A systemd user timer and service instead of a crontab line.")
        static let name = ArgumentKey.option("name", value: "name", help: "With --systemd: the units' name, vidrec-NAME.timer and .service (letters, digits, - and _; default: schedule).")
    }

    static let spec = CommandSpec(
        name: "schedule",
        abstract: "Print the crontab line, or systemd timer, that records on a schedule (or install it).",
        discussion: """
        Example: vidrec schedule '*/15 * * * *' -- --quality low --max 60 --save. The cron \
        fields and the start options are checked now. Every argument is quoted for the shell \
        cron uses, and '%' is escaped; an argument with a newline or other control character is \
        refused. The job runs with --quiet: it prints nothing when all \
        goes well, and one line on stderr when it fails, which cron mails to you; everything \
        goes to --log (default: ~/.local/state/vidrec/cron.log). With --install, the line is \
        added to your crontab through 'crontab -'. With --systemd, the same schedule becomes a \
        systemd user timer (vidrec-NAME.timer, OnCalendar= from the cron fields, Persistent= so \
        that a time missed while the machine was off runs when it is back) and the service it \
        starts (vidrec-NAME.service); the recording's messages go to the journal \
        (journalctl --user -u vidrec-NAME); keys and stream keys in --upload and --live go \
        into ~/.config/vidrec/vidrec-NAME.env (0600), never into the units. --install writes them into \
        ~/.config/systemd/user; enable them with systemctl --user enable --now vidrec-NAME.timer.
        """,
        arguments: [
            Key.cronSpec.spec,
            Key.install.spec,
            Key.systemd.spec,
            Key.name.spec,
        ],
        passesRest: true)

    var cronSpec: CronSpec
    var install: Bool
    var systemd: Bool
    var name: String
    var startArguments: [String]

    init(_ arguments: ParsedArguments) throws(ParserError) {
        let specText = arguments[Key.cronSpec] ?? ""
        install = arguments[Key.install]
        systemd = arguments[Key.systemd]
        name = arguments[Key.name] ?? "schedule"
        startArguments = arguments.rest
        if arguments[Key.name] != nil && !systemd {
            throw .invalidValue(name, for: "--name <name>", reason: "it names systemd units: add --systemd")
        }
        guard SystemdUnit.isValidName(name) else {
            throw .invalidValue(name, for: "--name <name>", reason: SystemdUnit.nameRule)
        }
        do {
            cronSpec = try CronSpec(specText)
        } catch {
            throw .invalidValue(specText, for: "<cron-spec>", reason: error.reason)
        }
        // The options must be ones 'vidrec start' accepts.
        _ = try StartOptions(CommandLineParser(spec: StartOptions.spec).parse(startArguments))
        if systemd {
            do {
                _ = try SystemdUnit.execLine(binary: "/", startArguments: startArguments)
            } catch {
                throw .invalidValue(error.argument, for: "<start-options>", reason: error.reason)
            }
            return
        }
        do {
            _ = try CronLine(spec: cronSpec, binary: "/", startArguments: startArguments)
        } catch {
            throw .invalidValue(error.argument ?? startArguments.joined(separator: " "), for: "<start-options>", reason: error.reason)
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let binary = URL(fileURLWithPath: context.executable).standardizedFileURL.path
        if systemd {
            let secrets = CommandLineSecrets.systemdSecrets(startArguments, path: context.paths.configDirectory + "/vidrec-\(name).env")
            let service: SystemdUnit
            do {
                service = try SystemdUnit.scheduledService(name: name, binary: binary, startArguments: secrets?.arguments ?? startArguments,
                                                           secrets: secrets)
            } catch {
                throw CLIError("cannot schedule '\(TextSafety.printable(RcloneRemote.redact(error.argument)))': \(error.reason)", .usage)
            }
            let timer = SystemdUnit.timer(name: name, schedule: cronSpec.systemdSchedule)
            return try SystemdUnitInstaller(units: [service, timer], entryPoint: timer.fileName, secrets: secrets).run(install: install, context)
        }
        let line: String
        do {
            line = try CronLine(spec: cronSpec, binary: binary,
                                startArguments: ScheduleCommand.unattended(startArguments, defaultLog: context.paths.stateDirectory + "/cron.log")).text
        } catch {
            throw CLIError("cannot schedule '\(TextSafety.printable(error.argument ?? binary))': \(error.reason)", .usage)
        }
        guard install else {
            context.out(line + "\n")
            return .success
        }
        // VIDREC_CRONTAB names another crontab program (the tests use one that writes a file).
        let candidates = [context.paths.environment["VIDREC_CRONTAB"], "/usr/bin/crontab", "/bin/crontab"].compactMap { $0 }
        guard let crontab = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw CLIError("crontab not found: install cron (sudo apt-get install cron), or add this line by hand: \(line)", .unavailable)
        }
        let existing = try ScheduleCommand.currentTable(crontab)
        if existing.split(separator: "\n").contains(Substring(line)) {
            context.err("vidrec: the crontab already has this line\n")
            context.out(line + "\n")
            return .success
        }
        let updated = existing + (existing.isEmpty || existing.hasSuffix("\n") ? "" : "\n") + line + "\n"
        let write = try ScheduleCommand.runCrontab(crontab, ["-"], input: updated)
        guard write.status == 0 else {
            throw CLIError("crontab - failed (status \(write.status)): \(write.errors.trimmingCharacters(in: .whitespacesAndNewlines))", .failure)
        }
        context.err("vidrec: added to your crontab\n")
        context.out(line + "\n")
        return .success
    }

    /// The user's crontab as `crontab -l` prints it. Only its "no crontab for USER"
    /// counts as empty; any other failure stops here, before anything is written, so a
    /// crontab that could not be read is never replaced.
    static func currentTable(_ crontab: String) throws -> String {
        let current = try runCrontab(crontab, ["-l"], input: nil)
        if current.status == 0 { return current.output }
        let errors = current.errors.trimmingCharacters(in: .whitespacesAndNewlines)
        if errors.hasPrefix("no crontab for ") { return "" }
        throw CLIError("crontab -l failed (status \(current.status)): \(errors.isEmpty ? "it said nothing" : errors); nothing was changed: fix cron, or add the line by hand", .failure)
    }

    /// The start options for an unattended run: quiet on success (cron mails only what a
    /// failure prints, one line on stderr), everything in the log: the user's `--log` if
    /// given, else `defaultLog`.
    static func unattended(_ startArguments: [String], defaultLog: String) -> [String] {
        var arguments = startArguments
        let hasLog = arguments.contains { $0 == "--log" || $0.hasPrefix("--log=") }
        if !hasLog { arguments += ["--log", defaultLog] }
        if !arguments.contains("--quiet") { arguments.append("--quiet") }
        return arguments
    }

    /// Runs crontab directly (no shell), feeding `input` on its standard input; its
    /// standard output and standard error are kept apart.
    static func runCrontab(_ path: String, _ arguments: [String], input: String?) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        let errorText = Mutex("")
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorText.withLock { $0 = String(decoding: data, as: UTF8.self) }
        }
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self), errorText.withLock { $0 })
    }
}
