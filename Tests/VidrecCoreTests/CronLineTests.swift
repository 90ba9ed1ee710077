import Testing
import VidrecCore

/// The crontab line `vidrec schedule` writes: nothing an argument holds can end the
/// line, add a command or be eaten by cron's `%` rule.
@Suite struct CronLineTests {
    static func line(_ arguments: [String]) throws -> String {
        try CronLine(spec: CronSpec("*/15 * * * *"), binary: "/usr/bin/vidrec", startArguments: arguments).text
    }

    @Test func argumentsAreQuotedForTheShellAndPercentForCron() throws {
        #expect(try Self.line(["--quality", "low", "--name", "door %H%M"]) == "*/15 * * * * /usr/bin/vidrec start --quality low --name 'door \\%H\\%M'")
        #expect(try Self.line(["it's"]) == "*/15 * * * * /usr/bin/vidrec start 'it'\\''s'")
        // A quote or a percent sign joined to a combining mark is still one to sh and cron.
        #expect(try Self.line(["'\u{301}; id"]) == "*/15 * * * * /usr/bin/vidrec start ''\\''\u{301}; id'")
        #expect(try Self.line(["%\u{301}"]) == "*/15 * * * * /usr/bin/vidrec start '\\%\u{301}'")
    }

    @Test(arguments: ["a\nb", "x\n0 * * * * rm -rf ~", "tab\there", "\u{1B}[2J", "c1\u{85}"])
    func anArgumentWithAControlCharacterIsRefused(argument: String) {
        #expect(throws: CronLine.Refused.self) { try Self.line(["--name", argument]) }
    }

    @Test func aBackslashBeforePercentIsRefused() {
        #expect(throws: CronLine.Refused.self) { try Self.line(["--name", "100\\%"]) }
        #expect(throws: Never.self) { try Self.line(["--name", "a\\b%c"]) }
    }

    @Test func aLineCronWouldCutShortIsRefused() {
        #expect(throws: CronLine.Refused.self) { try Self.line(["--log", "/" + String(repeating: "l", count: 1000)]) }
    }

    @Test func aSpecWithANewlineIsRefused() {
        #expect(throws: CronSpec.Invalid.self) { try CronSpec("* * * * *\n* * * * * id") }
    }
}
