import Testing
import VidrecCore
import VidrecMedia

/// Names that become files, crontab arguments or terminal output are checked on the
/// bytes the kernel sees; control characters are refused, and printed as escapes where
/// vidrec did not choose them.
@Suite struct NameRulesTests {
    @Test(arguments: ["holiday", "Geburtstag ünd 🎂", "a b", "-dash", String(repeating: "n", count: 200), "x\u{202E}y"])
    func plainNamesAreAccepted(name: String) {
        #expect(RecordingStore.isValidName(name))
    }

    @Test(arguments: ["", ".hidden", "..", "a/b", "x/\u{301}y", "/\u{301}", "a\nb", "\u{1B}[31mred", "bell\u{07}", "c1\u{9B}31m",
                      "del\u{7F}", "nul\0", String(repeating: "é", count: 101)])
    func namesThatLeaveTheirFolderOrReachTheTerminalAreRefused(name: String) {
        #expect(!RecordingStore.isValidName(name), "\(TextSafety.printable(name))")
    }

    @Test func albumPathsSplitWhereTheKernelSplits() {
        #expect(RecordingStore.isValidAlbumPath("2026/11/30/door-120000"))
        #expect(!RecordingStore.isValidAlbumPath("2026//door"))
        #expect(!RecordingStore.isValidAlbumPath("../door"))
        #expect(!RecordingStore.isValidAlbumPath("2026/\u{301}/../../x"), "a combining mark does not hide a '/'")
        #expect(!RecordingStore.isValidAlbumPath("/etc/passwd"))
    }

    @Test func controlCharactersPrintAsEscapes() {
        #expect(TextSafety.printable("clip\u{1B}[2J\n\t\u{9B}.mp4") == "clip\\u{1B}[2J\\n\\t\\u{9B}.mp4")
        #expect(TextSafety.printable("plain ünd 🎂") == "plain ünd 🎂")
    }
}
