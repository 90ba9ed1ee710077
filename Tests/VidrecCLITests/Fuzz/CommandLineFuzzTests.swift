import Foundation
import Testing
@testable import VidrecCLI
import VidrecCore

/// Every subcommand's command line, fuzzed: its own options with boundary and random
/// values, stray words and flags, in any order. The only outcomes allowed are a parse
/// that succeeds or one `Error:` line (plus the usage) that prints safely — never a
/// trap. A crontab line made from accepted options stays one line.
@Suite(.timeLimit(.minutes(3))) struct CommandLineFuzzTests {
    /// Seeds that once failed, tried first every run: 3428 and 4731 (of the reading
    /// commands) printed an --album path with control characters raw.
    static let regressions: [UInt64] = [3428, 4731]

    static func arguments(for spec: CommandSpec, _ random: inout SeededGenerator) -> [String] {
        var arguments: [String] = []
        for _ in 0..<Int.random(in: 0...7, using: &random) {
            guard let argument = spec.arguments.randomElement(using: &random) else { arguments.append(FuzzInput.text(&random)); continue }
            switch (Int.random(in: 0..<6, using: &random), argument.kind) {
            case (0...3, .option):
                if Bool.random(using: &random) {
                    arguments += ["--" + argument.name, FuzzInput.text(&random)]
                } else {
                    arguments.append("--" + argument.name + "=" + FuzzInput.text(&random))
                }
            case (0...3, .flag):
                arguments.append("--" + argument.name)
            case (4, _):
                arguments.append(spec.passesRest && Bool.random(using: &random) ? "--" : FuzzInput.text(&random))
            default:
                arguments.append(FuzzInput.text(&random))
            }
        }
        if spec.passesRest {
            // `schedule`: a cron spec first, start options after `--`.
            let start = Self.arguments(for: StartOptions.spec, &random)
            arguments = [Bool.random(using: &random) ? "*/15 * * * *" : FuzzInput.text(&random)] + arguments + ["--"] + start
        }
        return arguments
    }

    @Test func everySubcommandParsesAnyCommandLineOrSaysWhyInOneLine() throws {
        var accepted = 0, refused = 0
        for seed in Self.regressions + (1...UInt64(FuzzInput.cases)).map({ $0 }) {
            var random = SeededGenerator(seed: seed)
            let command = VidrecCLI.commands.randomElement(using: &random)!
            let arguments = Self.arguments(for: command.spec, &random)
            do {
                let parsed = try CommandLineParser(spec: command.spec).parse(arguments)
                let made = try command.init(parsed)
                if let schedule = made as? ScheduleCommand {
                    let line = try CronLine(spec: schedule.cronSpec, binary: "/usr/local/bin/vidrec",
                                            startArguments: ScheduleCommand.unattended(schedule.startArguments, defaultLog: "/tmp/cron.log"))
                    #expect(!line.text.contains("\n") && FuzzInput.printsSafely(line.text), "seed \(seed): \(line.text)")
                }
                accepted += 1
            } catch let error as ParserError {
                let message = UsageRenderer.usageError(error, spec: command.spec)
                #expect(message.hasPrefix("Error: ") && FuzzInput.printsSafely(message), "seed \(seed): \(arguments) → \(message)")
                refused += 1
            }
        }
        #expect(accepted > 0 && refused > 0, "\(accepted) accepted, \(refused) refused")
    }

    /// The commands that only read (and the schedule line), run whole in-process on
    /// fuzzed command lines: an exit code vidrec documents, and output that prints safely.
    @Test func readingCommandsRunOnAnyCommandLineAndPrintSafely() throws {
        let home = try TemporaryHome()
        let documented: Set<Int32> = [0, 1, 64, 65, 66, 69, 70, 73, 74, 75]
        let names = ["presets", "pending", "list", "show", "schedule", "help", "status", "upload"]
        for seed in Self.regressions + (1...UInt64(FuzzInput.cases / 4)).map({ $0 }) {
            var random = SeededGenerator(seed: seed)
            let name = names.randomElement(using: &random)!
            let command = VidrecCLI.commands.first { $0.spec.name == name }
            var arguments = command.map { Self.arguments(for: $0.spec, &random) } ?? [FuzzInput.text(&random)]
            if name == "upload" { arguments.append("--list") }  // never a real upload
            if name == "schedule" { arguments.removeAll { $0 == "--install" } }
            let result = runVidrec([name] + arguments, home: home.path)
            #expect(documented.contains(result.code), "seed \(seed): \([name] + arguments) exited \(result.code): \(result.err)")
            #expect(FuzzInput.printsSafely(result.out) && FuzzInput.printsSafely(result.err), "seed \(seed): \([name] + arguments): \(result.out) \(result.err)")
        }
    }
}
