import Testing
import VidrecCore

/// The `ExecStart=` line and the units' fixed parts, read as text; what systemd itself
/// makes of them is checked end to end (``EndToEndTests/SystemdEndToEndTests``).
@Suite struct SystemdUnitTests {
    @Test func plainArgumentsStayBareAndOthersAreQuotedWithSpecifiersAndVariablesDoubled() throws {
        let line = try SystemdUnit.execLine(binary: "/usr/bin/vidrec", startArguments: ["--max", "60", "--name", "door %H $HOME \"x\" \\y", ""])
        #expect(line == #"/usr/bin/vidrec start --max 60 --name "door %%H $$HOME \"x\" \\y" """#)
    }

    @Test(arguments: ["a\nExecStartPost=/bin/sh", "a\rb", "tab\there", "esc\u{1B}[2J", "nul\u{0}"])
    func controlCharactersAreRefused(_ argument: String) {
        #expect(throws: SystemdUnit.Refused.self) {
            try SystemdUnit.execLine(binary: "/usr/bin/vidrec", startArguments: ["--name", argument])
        }
    }

    @Test func unitNamesAreWordsThatNeedNoEscaping() {
        #expect(SystemdUnit.isValidName("porch-cam_2"))
        for name in ["", "a.b", "a/b", "../x", "a b", "a@b", "é", String(repeating: "x", count: 65)] {
            #expect(!SystemdUnit.isValidName(name), "\(name)")
        }
    }

    @Test func aCalendarTimerCatchesUpAndAStartupTimerHasNoCalendar() {
        let calendar = SystemdUnit.timer(name: "door", schedule: .calendar(["Mon *-*-* 09:00:00", "*-*-01 09:00:00"]))
        #expect(calendar.fileName == "vidrec-door.timer")
        #expect(calendar.text.contains("OnCalendar=Mon *-*-* 09:00:00\nOnCalendar=*-*-01 09:00:00\nPersistent=true\n"))
        let startup = SystemdUnit.timer(name: "door", schedule: .atStartup)
        #expect(startup.text.contains("OnStartupSec=0\n") && !startup.text.contains("OnCalendar") && !startup.text.contains("Persistent"))
    }
}
