import Testing
@testable import VidrecCLI

/// How a hook's command is split into an argv (systemd's `ExecStart=` rules, with
/// variables replaced only as whole words).
@Suite struct HookCommandLineTests {
    static let facts = ["VIDREC_FILE": "/album/front door.mp4", "VIDREC_KIND": "recording"]

    static let splits: [(command: String, argv: [String])] = [
        ("/usr/bin/notify saved", ["/usr/bin/notify", "saved"]),
        ("  notify \t saved  ", ["notify", "saved"]),
        (#"notify "a b" 'c d'"#, ["notify", "a b", "c d"]),
        (#"notify a"b c"d"#, ["notify", "ab cd"]),
        (#"notify "" ''"#, ["notify", "", ""]),
        (#"notify a\ b \"q\" \\ \n"#, ["notify", "a b", "\"q\"", "\\", "\n"]),
        (#"notify "it's" 'say "hi"'"#, ["notify", "it's", "say \"hi\""]),
        // A whole-word variable is one argument, spaces and all.
        ("notify $VIDREC_FILE ${VIDREC_KIND} \"$VIDREC_FILE\"", ["notify", "/album/front door.mp4", "recording", "/album/front door.mp4"]),
        // Anywhere else a `$` stays for the program: a shell reads it from its environment.
        (#"sh -c 'mv "$VIDREC_FILE" /srv'"#, ["sh", "-c", "mv \"$VIDREC_FILE\" /srv"]),
        (#"sh -c "echo $VIDREC_FILE; echo ${VIDREC_KIND}""#, ["sh", "-c", "echo $VIDREC_FILE; echo ${VIDREC_KIND}"]),
        ("notify x$VIDREC_KIND $$ $ ${not-a-name}", ["notify", "x$VIDREC_KIND", "$$", "$", "${not-a-name}"]),
        ("notify '$VIDREC_FILE' \\$VIDREC_FILE", ["notify", "$VIDREC_FILE", "$VIDREC_FILE"]),
        ("notify $UNSET_VARIABLE", ["notify", ""]),
    ]

    @Test(arguments: splits)
    func aCommandSplitsAsSystemdSplitsExecStart(_ split: (command: String, argv: [String])) throws {
        let command = try HookCommandLine(parsing: split.command)
        #expect(command.arguments(in: Self.facts) == split.argv)
    }

    static let problems: [(command: String, problem: String)] = [
        ("", "it names no program"),
        ("   ", "it names no program"),
        (#"notify "open"#, "a \" quote is not closed"),
        ("notify 'open", "a ' quote is not closed"),
        ("notify \\", "it ends with a backslash"),
        ("notify \\q", "'\\q' is not an escape vidrec knows"),
    ]

    @Test(arguments: problems)
    func aCommandThatCannotBeSplitSaysWhy(_ bad: (command: String, problem: String)) {
        do {
            _ = try HookCommandLine(parsing: bad.command)
            Issue.record("\(bad.command) was split")
        } catch {
            #expect(error.description.hasPrefix(bad.problem), "\(error.description)")
        }
    }
}
