import Foundation
import Testing
import VidrecCore

/// The crontab line, run the way cron runs it: cron's `%` rule (`\%` is a `%`, a bare
/// `%` ends the command), then `/bin/sh -c`. Whatever the start options, a line vidrec
/// makes is one line, and the shell hands the program exactly those arguments.
@Suite(.timeLimit(.minutes(3))) struct CronLineFuzzTests {
    /// Seeds that once failed, tried first every run: 2414 left a `'` joined to a
    /// combining mark unquoted (the shell saw an open quote).
    static let regressions: [UInt64] = [2414]

    /// What cron passes to the shell, reading bytes as cron does: `\%` becomes `%`;
    /// `nil` where a bare `%` would cut the command short.
    static func cronCommand(_ command: String) -> String? {
        var result: [UInt8] = [], escaped = false
        for byte in command.utf8 {
            if escaped {
                result += byte == UInt8(ascii: "%") ? [byte] : [UInt8(ascii: "\\"), byte]
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "%") {
                return nil
            } else {
                result.append(byte)
            }
        }
        return String(decoding: result + (escaped ? [UInt8(ascii: "\\")] : []), as: UTF8.self)
    }

    @Test func theShellGetsExactlyTheArgumentsGiven() throws {
        let folder = try TemporaryHome()
        // A stand-in for vidrec that prints its arguments, NUL after each.
        let program = folder.path + "/print-arguments"
        try "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done\n".write(toFile: program, atomically: true, encoding: .utf8)
        chmod(program, 0o755)
        var refused = 0, ran = 0
        for seed in Self.regressions + (1...UInt64(max(FuzzInput.cases / 8, 1))).map({ $0 }) {
            var random = SeededGenerator(seed: seed)
            let arguments = (0..<Int.random(in: 1...4, using: &random)).map { _ in FuzzInput.text(&random) }
            let line: CronLine
            do {
                line = try CronLine(spec: CronSpec("*/5 * * * *"), binary: program, startArguments: arguments)
            } catch {
                refused += 1
                continue
            }
            #expect(!line.text.contains("\n") && !line.text.contains("\r"), "seed \(seed): \(line.text)")
            let command = String(line.text.dropFirst("*/5 * * * * ".count))
            let shellCommand = try #require(Self.cronCommand(command), "seed \(seed): cron would cut \(command)")
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", shellCommand]
            let out = Pipe()
            shell.standardOutput = out
            try shell.run()
            let printed = out.fileHandleForReading.readDataToEndOfFile()
            shell.waitUntilExit()
            let received = printed.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
            #expect(received == ["start"] + arguments, "seed \(seed): \(command)")
            ran += 1
        }
        #expect(refused > 0 && ran > 0, "\(refused) refused, \(ran) ran")
    }
}
