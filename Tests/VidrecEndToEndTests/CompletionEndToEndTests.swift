import Foundation
import Testing

/// The completion scripts loaded in real bash, zsh and fish, asked for the completions of
/// partial command lines: subcommands, every option of every subcommand, fixed values,
/// and what vidrec lists (presets with the user's own, pending IDs, album names — one that
/// looks like a command substitution is completed, never run).
@Suite struct CompletionEndToEndTests {
    /// A home with a user preset, a pending recording and an album item whose name holds
    /// `$(touch pwned)`.
    final class Setup {
        let home: Home
        let pendingID: String
        let bin = URL(fileURLWithPath: VidrecProcess.binary).deletingLastPathComponent().path
        static let oddName = "my $(touch pwned) clip"

        init() throws {
            home = try Home()
            let presets = home.path + "/.config/vidrec/presets"
            try FileManager.default.createDirectory(atPath: presets, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: VidrecProcess.presets + "/low.json", toPath: presets + "/door.json")
            let saved = try VidrecProcess.run(["start", "--camera", "test", "--mic", "none", "--quality", "low", "--max", "1",
                                               "--save", "--as", Self.oddName], home: home.path)
            #expect(saved.code == 0, "\(saved.err)")
            let kept = try VidrecProcess.run(["start", "--camera", "test", "--mic", "none", "--quality", "low", "--max", "1"],
                                             home: home.path)
            #expect(kept.code == 0, "\(kept.err)")
            pendingID = try #require(try home.pendingRows().first?["id"] as? String)
        }

        /// Runs `script` in `shell` in the home, with the built vidrec first on PATH.
        func shell(_ program: String, _ arguments: [String], script: String) throws -> String {
            let file = home.path + "/.driver"
            try script.write(toFile: file, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = arguments + [file]
            process.currentDirectoryURL = URL(fileURLWithPath: home.path)
            process.environment = ["HOME": home.path, "PATH": "\(bin):/usr/bin:/bin", "TERM": "dumb", "LANG": "C.UTF-8"]
            let out = home.path + "/.driver-out"
            _ = FileManager.default.createFile(atPath: out, contents: nil)
            process.standardOutput = FileHandle(forWritingAtPath: out)
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return try String(contentsOfFile: out, encoding: .utf8)
        }

        /// The completions of each line, in bash (`COMPREPLY` of `_vidrec`).
        func bash(_ lines: [String]) throws -> [[String]] {
            let script = """
            source <(vidrec completions bash)
            c() {
                local line=$1
                read -ra COMP_WORDS <<< "$line"
                [[ $line == *" " ]] && COMP_WORDS+=("")
                COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )) COMP_LINE=$line COMP_POINT=${#line}
                COMPREPLY=()
                _vidrec 2>/dev/null
                printf '%s\\n' "${COMPREPLY[@]}"
                echo '--end--'
            }

            """ + lines.map { "c \(Self.quoted($0))" }.joined(separator: "\n") + "\n"
            return Self.split(try shell("/bin/bash", ["--norc", "--noprofile"], script: script))
        }

        /// The completions of each line, in fish (`complete -C`), without descriptions.
        func fish(_ lines: [String]) throws -> [[String]] {
            let script = "vidrec completions fish | source\n"
                + lines.map { "complete -C \(Self.quoted($0)); echo -- --end--" }.joined(separator: "\n") + "\n"
            return Self.split(try shell("/usr/bin/fish", ["--no-config"], script: script))
                .map { $0.map { String($0.split(separator: "\t", maxSplits: 1).first ?? "") } }
        }

        /// The completions of each line, in an interactive zsh on a pseudo-terminal
        /// (zsh/zpty): compinit, the script autoloaded from $fpath, and every match
        /// `compadd` is given written to a file.
        func zsh(_ lines: [String]) throws -> [[String]] {
            let functions = home.path + "/.zfunc"
            try FileManager.default.createDirectory(atPath: functions, withIntermediateDirectories: true)
            let generated = try VidrecProcess.run(["completions", "zsh"], home: home.path)
            try generated.out.write(toFile: functions + "/_vidrec", atomically: true, encoding: .utf8)
            let matches = home.path + "/.zsh-matches"
            let setup = home.path + "/.zsh-setup"
            try """
            PS1='' RPS1=''
            fpath=(\(functions) $fpath)
            autoload -Uz compinit && compinit -u -D
            compadd() {
                if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\\ * ]]; then builtin compadd "$@"; return; fi
                local -a hits
                builtin compadd -O hits "$@"
                (( $#hits )) && print -rl -- $hits >> \(matches)
                return 0
            }
            finish() { print -r -- --end-- >> \(matches); exit }
            comppostfuncs=(finish)
            bindkey '^I' complete-word

            """.write(toFile: setup, atomically: true, encoding: .utf8)
            var results: [[String]] = []
            for line in lines {
                try? FileManager.default.removeItem(atPath: matches)
                let driver = """
                zmodload zsh/zpty
                zpty z zsh -f -i
                zpty -w z \(Self.quoted("source " + setup))
                zpty -n -w z \(Self.quoted(line))$'\\t'
                while zpty -r z chunk; do :; done

                """
                _ = try shell("/usr/bin/zsh", ["-f"], script: driver)
                let text = (try? String(contentsOfFile: matches, encoding: .utf8)) ?? ""
                results.append(Self.split(text).first ?? [])
            }
            return results
        }

        static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

        static func split(_ output: String) -> [[String]] {
            var groups: [[String]] = [], group: [String] = []
            for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if line == "--end--" { groups.append(group); group = [] } else if !line.isEmpty { group.append(line) }
            }
            return groups
        }
    }

    /// Every option of every subcommand, as `vidrec <subcommand> --help` lists them.
    static func optionsBySubcommand(home: String) throws -> [String: [String]] {
        let root = try VidrecProcess.run(["--help"], home: home)
        var result: [String: [String]] = [:]
        let subcommands = root.out.components(separatedBy: "SUBCOMMANDS:\n").last?.split(separator: "\n")
            .compactMap { $0.hasPrefix("  ") && !$0.hasPrefix("   ") ? $0.split(separator: " ").first.map { String($0).trimmingCharacters(in: .punctuationCharacters) } : nil } ?? []
        // (`help` shows the top-level page, whose options are not its own.)
        for name in subcommands where !name.isEmpty && name != "See" && name != "help" {
            let help = try VidrecProcess.run([name, "--help"], home: home)
            // Option rows start with two spaces and a dash; their help may wrap below.
            result[name] = help.out.split(separator: "\n").filter { $0.hasPrefix("  -") }.compactMap { row in
                row.split(separator: " ").first(where: { $0.hasPrefix("--") }).map(String.init)
            }
        }
        return result
    }

    @Test(.serialized, arguments: ["bash", "zsh", "fish"])
    func partialCommandLinesCompleteInARealShell(_ shell: String) throws {
        let setup = try Setup()
        let lines = [
            "vidrec st",                    // 0 subcommands
            "vidrec start --qual",          // 1 an option
            "vidrec start --quality ",      // 2 presets, the user's too
            "vidrec start --video c",       // 3 a fixed value
            "vidrec save ",                 // 4 pending IDs
            "vidrec show my",               // 5 album names
            "vidrec completions ",          // 6 shells
            "vidrec start --camera te",     // 7 the test sources
            "vidrec sheet --album Vid",     // 8 folders
        ]
        let got = switch shell {
        case "bash": try setup.bash(lines)
        case "zsh": try setup.zsh(lines)
        default: try setup.fish(lines)
        }
        try #require(got.count == lines.count, "\(shell): \(got)")
        #expect(Set(["start", "stop", "status"]).isSubset(of: got[0]) && !got[0].contains("save"), "\(shell): \(got[0])")
        #expect(got[1] == ["--quality"], "\(shell): \(got[1])")
        #expect(Set(["low", "medium", "high", "door"]).isSubset(of: got[2]), "\(shell): \(got[2])")
        #expect(got[3] == ["copy"], "\(shell): \(got[3])")
        #expect(got[4].contains(setup.pendingID), "\(shell): \(got[4]) lacks \(setup.pendingID)")
        let odd = Setup.oddName
        let shown = shell == "bash" ? odd.map { " $()".contains($0) ? "\\\($0)" : "\($0)" }.joined() : odd
        #expect(got[5] == [shown + ".mp4"], "\(shell): \(got[5])")
        #expect(Set(got[6]) == ["bash", "zsh", "fish"], "\(shell): \(got[6])")
        #expect(Set(["test", "test:mjpeg", "test:h264"]).isSubset(of: got[7].map { $0.replacingOccurrences(of: "\\:", with: ":") }), "\(shell): \(got[7])")
        #expect(Set(got[8].map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }) == ["Videos"], "\(shell): \(got[8])")
        #expect(!FileManager.default.fileExists(atPath: setup.home.path + "/pwned"), "a listed name was run by \(shell)")
    }

    @Test(.serialized, arguments: ["bash", "fish"])
    func everyOptionOfEverySubcommandCompletes(_ shell: String) throws {
        let setup = try Setup()
        let options = try Self.optionsBySubcommand(home: setup.home.path)
        #expect(options.count >= 20, "\(options.keys.sorted())")
        let names = options.keys.sorted()
        let lines = names.map { "vidrec \($0) --" }
        let got = shell == "bash" ? try setup.bash(lines) : try setup.fish(lines)
        try #require(got.count == lines.count)
        for (name, completions) in zip(names, got) {
            let expected = Set(options[name] ?? [])
            #expect(expected.isSubset(of: completions), "\(shell) \(name): missing \(expected.subtracting(completions).sorted())")
        }
    }
}
