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
    @Test func parsingIsStrictAboutOptionsAndValues() throws {
        let home = try TemporaryHome()
        for (arguments, message) in [
            (["start", "--qualty", "high"], "Error: Unknown option '--qualty'. Did you mean '--quality'?"),
            (["start", "--max=2", "--max=3"], "Error: Option '--max <duration>' given more than once"),
            (["start", "-q"], "Error: Missing value for '--quality <preset>'"),
        ] {
            let result = runVidrec(arguments, home: home.path)
            #expect(result.code == 64)
            #expect(result.err.hasPrefix(message + "\nUsage: vidrec start "))
            #expect(result.err.hasSuffix("\n  See 'vidrec start --help' for more information.\n"))
        }
        // `--opt=value` and `--opt value` mean the same.
        let a = runVidrec(["start", "--camera=test", "--quality=nosuch"], home: home.path)
        let b = runVidrec(["start", "--camera", "test", "--quality", "nosuch"], home: home.path)
        #expect(a.code == 65 && a.err == b.err)
    }

    @Test func helpGoesToStandardOutputWithStatusZero() throws {
        let home = try TemporaryHome()
        for arguments in [["--help"], ["help"], ["start", "--help"], ["help", "save"], []] {
            let result = runVidrec(arguments, home: home.path)
            #expect(result.code == 0)
            #expect(result.out.contains("USAGE: vidrec"))
            #expect(result.err.isEmpty)
        }
        #expect(runVidrec(["start", "-h"], home: home.path).out.contains("--max <duration>"))
    }

    @Test func aBrokenUserPresetNamesItsFileAndField() throws {
        let home = try TemporaryHome()
        let folder = home.path + "/.config/vidrec/presets"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "{\"width\": 641}".write(toFile: folder + "/odd.json", atomically: true, encoding: .utf8)
        try "{ not json".write(toFile: folder + "/broken.json", atomically: true, encoding: .utf8)
        let odd = runVidrec(["start", "--camera", "test", "--quality", "odd"], home: home.path)
        #expect(odd.code == 65)
        #expect(odd.err == "Error: preset '\(folder)/odd.json': field 'width' must be an even whole number from 32 to 7680, not 641\n")
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
