import Foundation
import Synchronization
import Testing
import VidrecCLI
import VidrecCore

/// Captured output of one in-process run of `vidrec`.
final class Captured: Sendable {
    let out = Mutex("")
    let err = Mutex("")
}

/// Runs `vidrec` in-process with a private HOME and the repository's presets.
func runVidrec(_ arguments: [String], home: String) -> (code: Int32, out: String, err: String) {
    let captured = Captured()
    let presets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("presets").path
    let context = CommandContext(
        paths: VidrecPaths(environment: ["HOME": home, "VIDREC_PRESETS_DIR": presets]),
        executable: "/nonexistent/bin/vidrec",
        out: { text in captured.out.withLock { $0 += text } },
        err: { text in captured.err.withLock { $0 += text } },
        errIsTerminal: false)
    let code = VidrecCLI.run(arguments, context: context)
    return (code, captured.out.withLock { $0 }, captured.err.withLock { $0 })
}

@Suite struct CLITableTests {
    /// argv → the first line on stderr, and the exit status. Usage errors (64) must also
    /// print the usage and the help hint.
    static let table: [([String], String, Int32)] = [
        (["start", "--qualty", "high"], "Error: Unknown option '--qualty'. Did you mean '--quality'?", 64),
        (["start", "--max"], "Error: Missing value for '--max <seconds>'", 64),
        (["start", "--max", "abc"], "Error: The value 'abc' is invalid for '--max <seconds>': give a number of seconds greater than 0 and at most 86400, such as 30 or 2.5", 64),
        (["start", "--max", "-1"], "Error: The value '-1' is invalid for '--max <seconds>': give a number of seconds greater than 0 and at most 86400, such as 30 or 2.5", 64),
        (["start", "--max", "0"], "Error: The value '0' is invalid for '--max <seconds>': give a number of seconds greater than 0 and at most 86400, such as 30 or 2.5", 64),
        (["start", "--max", "1e12"], "Error: The value '1e12' is invalid for '--max <seconds>': give a number of seconds greater than 0 and at most 86400, such as 30 or 2.5", 64),
        (["start", "--max=2", "--max=3"], "Error: Option '--max <seconds>' given more than once", 64),
        (["start", "extra"], "Error: Unexpected argument 'extra'", 64),
        (["start", "--save=yes"], "Error: Unexpected argument '--save=yes'", 64),
        (["start", "--as", "clip"], "Error: '--as <name>' cannot be used with 'a recording that is not saved; add --save'", 64),
        (["start", "--save", "--as", "../x"], "Error: The value '../x' is invalid for '--as <name>': give a plain file name without '/' that does not start with '.'", 64),
        (["strat"], "Error: Unknown command 'strat'. Did you mean 'start'?", 64),
        (["--verison"], "Error: Unknown option '--verison'. Did you mean '--version'?", 64),
        (["save", "a", "b"], "Error: Unexpected argument 'b'", 64),
        (["stop", "--timeout", "0"], "Error: The value '0' is invalid for '--timeout <seconds>': give a number of seconds from 0 to 3600", 64),
        (["help", "nosuch"], "Error: Unknown command 'nosuch'.", 64),
        (["start", "--camera", "test", "--quality", "ultra"], "Error: unknown quality preset 'ultra'. Available: low, medium, high, 640x480, 1280x720, 1920x1080, 3840x2160 (or a path to a preset file)", 65),
        (["start", "--camera", "test", "--quality", "hihg"], "Error: unknown quality preset 'hihg'. Did you mean 'high'? Available: low, medium, high, 640x480, 1280x720, 1920x1080, 3840x2160 (or a path to a preset file)", 65),
        (["start", "--camera", "test", "--quality", "/nonexistent/p.json"], "Error: cannot read preset '/nonexistent/p.json': No such file or directory", 65),
        (["save"], "Error: nothing to save: there are no finished recordings; record one with 'vidrec start'", 66),
        (["discard"], "Error: nothing to discard: there are no finished recordings; record one with 'vidrec start'", 66),
        (["save", "20990101-000000"], "Error: no pending recording '20990101-000000'; there are none", 66),
        (["stop"], "Error: no recording in progress; start one with 'vidrec start'", 66),
    ]

    @Test(arguments: table)
    func badInputGetsOneClearLineAndItsExitCode(arguments: [String], message: String, code: Int32) throws {
        let home = try TemporaryHome()
        let result = runVidrec(arguments, home: home.path)
        #expect(result.code == code)
        #expect(result.err.split(separator: "\n").first.map(String.init) == message)
        if code == 64 {
            #expect(result.err.contains("\nUsage: vidrec"))
            #expect(result.err.hasSuffix("for more information.\n"))
        } else {
            #expect(result.err.split(separator: "\n").count == 1, "runtime errors are one line")
        }
        #expect(result.out.isEmpty)
    }

    @Test func helpGoesToStandardOutputWithStatusZero() throws {
        let home = try TemporaryHome()
        for arguments in [["--help"], ["help"], ["start", "--help"], ["help", "save"], []] {
            let result = runVidrec(arguments, home: home.path)
            #expect(result.code == 0)
            #expect(result.out.contains("USAGE: vidrec"))
            #expect(result.err.isEmpty)
        }
        #expect(runVidrec(["start", "-h"], home: home.path).out.contains("--max <seconds>"))
    }

    @Test func aBrokenUserPresetNamesItsFileAndField() throws {
        let home = try TemporaryHome()
        let folder = home.path + "/.config/vidrec/presets"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "{\"width\": 641}".write(toFile: folder + "/odd.json", atomically: true, encoding: .utf8)
        try "{ not json".write(toFile: folder + "/broken.json", atomically: true, encoding: .utf8)
        let odd = runVidrec(["start", "--camera", "test", "--quality", "odd"], home: home.path)
        #expect(odd.code == 65)
        #expect(odd.err == "Error: preset '\(folder)/odd.json': field 'width' must be an even whole number from 16 to 7680, not 641\n")
        let broken = runVidrec(["start", "--camera", "test", "--quality", "broken"], home: home.path)
        #expect(broken.code == 65)
        #expect(broken.err.hasPrefix("Error: preset '\(folder)/broken.json' is not valid JSON"))
        let listing = runVidrec(["presets"], home: home.path)
        #expect(listing.code == 65, "presets reports broken ones")
        #expect(listing.out.contains("broken     BROKEN: preset '\(folder)/broken.json'"))
    }

    @Test func anEncoderThisFFmpegLacksIsABrokenPreset() throws {
        let home = try TemporaryHome()
        let folder = home.path + "/.config/vidrec/presets"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let high = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("presets/high.json")
        let text = try String(contentsOf: high, encoding: .utf8).replacingOccurrences(of: "libx264", with: "libx266")
        try text.write(toFile: folder + "/future.json", atomically: true, encoding: .utf8)
        let result = runVidrec(["start", "--camera", "test", "--quality", "future"], home: home.path)
        #expect(result.code == 65)
        #expect(result.err.contains("field 'video.codec' names 'libx266', which is not a video encoder in this FFmpeg"))
    }

    @Test func presetsListsEveryBuiltInPresetResolved() throws {
        let home = try TemporaryHome()
        let result = runVidrec(["presets"], home: home.path)
        #expect(result.code == 0)
        #expect(result.out.contains("high       1920x1080 30 fps, libx264 veryfast CRF 20 max 12 Mb/s yuv420p key every 30, aac 48000 Hz 2 ch 192 kb/s, mp4"))
        #expect(result.out.contains("low        640x360 15 fps"))
    }
}

/// A private HOME for one test.
final class TemporaryHome {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "vidrec-home-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
