import Foundation
import Glibc
import Testing

extension EndToEndTests {
    /// `$XDG_CONFIG_HOME/vidrec/config`: the settings a command line would carry, the
    /// command line winning, every value checked with the file's name and line.
    @Suite struct ConfigFileEndToEndTests {
        /// Writes `text` as the home's config file with `mode`; returns its path.
        @discardableResult
        static func write(_ text: String, in home: Home, mode: mode_t = 0o600) throws -> String {
            let folder = home.path + "/.config/vidrec"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = folder + "/config"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            chmod(path, mode)
            return path
        }

        static let settings = """
            # the camera on the shelf
            [start]
            camera = test
            mic = test
            quality = low
            max = 2
            save = yes

            [serve]
            quality = low
            """

        @Test func aBareStartRecordsAsTheFileSaysAndTheCommandLineWins() throws {
            let home = try Home()
            let path = try Self.write(Self.settings, in: home)
            let plain = try VidrecProcess.run(["start"], home: home.path)
            #expect(plain.code == 0, "\(plain.err)")
            let saved = try #require(plain.out.split(separator: "\n").last.map(String.init), "saved: \(plain.out)")
            let video = try #require(try Probe.streams(saved).first { $0.kind == "video" })
            #expect(video.width == 640 && video.height == 360, "the low preset: \(video)")
            #expect(abs(try Probe.formatDuration(saved) - 2) < 0.01, "--max 2 from the file")
            // The command line wins, option by option.
            let overridden = try VidrecProcess.run(["start", "--max", "1", "--quality", "medium"], home: home.path)
            #expect(overridden.code == 0, "\(overridden.err)")
            let second = try #require(overridden.out.split(separator: "\n").last.map(String.init))
            #expect(try Probe.streams(second).first { $0.kind == "video" }?.width == 1280)
            #expect(abs(try Probe.formatDuration(second) - 1) < 0.01)
            // vidrec config says what a run would use, and from where.
            let shown = try VidrecProcess.run(["config", "start", "--", "--max", "1"], home: home.path)
            #expect(shown.code == 0, "\(shown.err)")
            let lines = shown.out.split(separator: "\n").map(String.init)
            #expect(lines.first == "[start]" && lines.contains { $0.hasPrefix("max = 1 ") && $0.hasSuffix("# command line") }, "\(shown.out)")
            #expect(lines.contains { $0.hasPrefix("quality = low ") && $0.hasSuffix("# \(path) line 5") }, "\(shown.out)")
            #expect(lines.contains { $0.hasPrefix("save = yes ") && $0.hasSuffix("# \(path) line 7") }, "\(shown.out)")
            let all = try VidrecProcess.run(["config"], home: home.path)
            #expect(all.out.contains("[serve]\nquality = low ") && all.out.contains("[upload]\n"), "\(all.out)")
            // A stream key is shortened, as in every message.
            try Self.write(Self.settings + "\n[start]\nlive = rtmp://127.0.0.1/live/k3y-0123456789\n", in: home)
            let secret = try VidrecProcess.run(["config", "start"], home: home.path)
            #expect(secret.code == 0 && secret.out.contains("live = rtmp://127.0.0.1/live/") && !secret.out.contains("0123456789"), "\(secret.out)")
        }

        /// Each of these is one line naming the file, the line and the fix; nothing is
        /// recorded.
        @Test(arguments: [
            ("[start]\nqualty = low\n", 0o600 as mode_t, "line 2: 'qualty' is not an option of 'vidrec start'. Did you mean 'quality'?"),
            ("[start]\nmax = abc\n", 0o600, "line 2: The value 'abc' is invalid for '--max <duration>'"),
            ("[start]\nsave = maybe\n", 0o600, "line 2: save takes yes or no, not 'maybe'"),
            ("[start]\nmax = 5\nmax = 6\n", 0o600, "line 3: max is set twice"),
            ("quality = low\n", 0o600, "line 1: a setting before any [section]"),
            ("[record]\n", 0o600, "line 1: '[record]' is not a section; the sections are [start], [serve], [upload], [mqtt]"),
            ("[start]\njust words\n", 0o600, "line 2: give key = value"),
            ("[mqtt]\nhost = x\n", 0o600, "line 2: unknown key 'host' in [mqtt]; the keys are url and credentials"),
            ("[start]\nmax = 5\n", 0o620, "others can change it (mode 620"),
            ("[start]\nlive = rtmp://127.0.0.1/live/k3y\n", 0o644, "line 2: 'live' may hold a secret, and others can read the file (mode 644): chmod 600"),
        ])
        func aBadFileIsOneLineWithItsLineAndTheFix(text: String, mode: mode_t, words: String) throws {
            let home = try Home()
            let path = try Self.write(text, in: home, mode: mode)
            let result = try VidrecProcess.run(["start", "--camera", "test", "--mic", "test", "--max", "1"], home: home.path)
            #expect(result.code == 64, "\(result.err)")
            #expect(result.err.hasPrefix("Error: \(path)") && result.err.contains(words), "\(result.err)")
            #expect(result.err.split(separator: "\n").count == 1 && !result.err.contains("k3y"), "one line, no stream key: \(result.err)")
            #expect(home.files(in: home.pending, ending: ".mp4").isEmpty)
        }

        /// A combination that does not fit, made of the file and the command line, is
        /// said as the command line's, with a pointer to the file.
        @Test func aConflictWithTheFileSaysTheFileAppliesToo() throws {
            let home = try Home()
            try Self.write("[start]\nas = shelf\n", in: home)
            let result = try VidrecProcess.run(["start", "--camera", "test", "--name", "x-%H", "--save"], home: home.path)
            #expect(result.code == 64 && result.err.contains("'--as <name>' cannot be used with '--name <template>'"), "\(result.err)")
            #expect(result.err.contains("'vidrec config start' shows them"), "\(result.err)")
        }
    }
}
