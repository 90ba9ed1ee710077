import Foundation
import VidrecCore

/// `vidrec schedule 'CRON-SPEC' -- START-OPTIONS`: print (or install) the crontab line
/// that runs `vidrec start` with those options.
struct ScheduleCommand: VidrecCommand {
    static let spec = CommandSpec(
        name: "schedule",
        abstract: "Print the crontab line that records on a schedule (or install it).",
        discussion: """
        Example: vidrec schedule '*/15 * * * *' -- --quality low --max 60 --save. The cron \
        fields and the start options are checked now. Every argument is quoted for the shell \
        cron uses, and '%' is escaped. The job runs with --quiet: it prints nothing when all \
        goes well, and one line on stderr when it fails, which cron mails to you; everything \
        goes to --log (default: ~/.local/state/vidrec/cron.log). With --install, the line is \
        added to your crontab through 'crontab -'.
        """,
        arguments: [
            .positional("cron-spec", optional: false, help: "Five cron fields: minute hour day-of-month month day-of-week."),
            .flag("install", help: "Add the line to your crontab (once)."),
        ],
        passesRest: true)

    var cronSpec: String
    var install: Bool
    var startArguments: [String]

    init(_ arguments: ParsedArguments) throws(ParserError) {
        cronSpec = arguments.positionals["cron-spec"] ?? ""
        install = arguments.has("install")
        startArguments = arguments.rest
        do {
            cronSpec = try CronSpec(cronSpec).text
        } catch {
            throw .invalidValue(cronSpec, for: "<cron-spec>", reason: error.reason)
        }
        // The options must be ones 'vidrec start' accepts.
        _ = try StartOptions(CommandLineParser(spec: StartOptions.spec).parse(startArguments))
    }

    /// Quotes one argument for /bin/sh, and escapes `%`, which cron turns into newlines.
    static func quote(_ argument: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=@,+")
        let quoted = argument.allSatisfy { safe.contains($0) } && !argument.isEmpty
            ? argument : "'" + argument.replacingOccurrences(of: "'", with: "'\\''") + "'"
        return quoted.replacingOccurrences(of: "%", with: "\\%")
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let binary = URL(fileURLWithPath: context.executable).standardizedFileURL.path
        let line = "\(cronSpec) \(ScheduleCommand.command(binary: binary, startArguments, defaultLog: context.paths.stateDirectory + "/cron.log"))"
        guard install else {
            context.out(line + "\n")
            return .success
        }
        // VIDREC_CRONTAB names another crontab program (the tests use one that writes a file).
        let candidates = [context.paths.environment["VIDREC_CRONTAB"], "/usr/bin/crontab", "/bin/crontab"].compactMap { $0 }
        guard let crontab = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw CLIError("crontab not found: install cron (sudo apt-get install cron), or add this line by hand: \(line)", .unavailable)
        }
        let current = try ScheduleCommand.runCrontab(crontab, ["-l"], input: nil)
        let existing = current.status == 0 ? current.output : ""
        if existing.split(separator: "\n").contains(Substring(line)) {
            context.err("vidrec: the crontab already has this line\n")
            context.out(line + "\n")
            return .success
        }
        let updated = existing + (existing.isEmpty || existing.hasSuffix("\n") ? "" : "\n") + line + "\n"
        let write = try ScheduleCommand.runCrontab(crontab, ["-"], input: updated)
        guard write.status == 0 else {
            throw CLIError("crontab - failed (status \(write.status)): \(write.output.trimmingCharacters(in: .whitespacesAndNewlines))", .failure)
        }
        context.err("vidrec: added to your crontab\n")
        context.out(line + "\n")
        return .success
    }

    /// The command part of the crontab line: quiet on success (cron mails only what a
    /// failure prints, one line on stderr), everything in the log: the user's `--log`
    /// if given, else `defaultLog`.
    static func command(binary: String, _ startArguments: [String], defaultLog: String) -> String {
        var arguments = startArguments
        let hasLog = arguments.contains { $0 == "--log" || $0.hasPrefix("--log=") }
        if !hasLog { arguments += ["--log", defaultLog] }
        if !arguments.contains("--quiet") { arguments.append("--quiet") }
        return ([binary, "start"] + arguments).map(ScheduleCommand.quote).joined(separator: " ")
    }

    /// Runs crontab directly (no shell), feeding `input` on its standard input.
    static func runCrontab(_ path: String, _ arguments: [String], input: String?) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
