import Foundation
import Testing
@testable import VidrecCLI

/// The `vidrec …` commands in the README's and the GUIDE's code blocks work as written:
/// each parses and passes its command's checks as `vidrec` reads it, and each
/// `vidrec start` among them runs on the test sources, with `--camera test`,
/// `--mic test` and a 1-second `--max` in place of the devices and the length it names.
@Suite struct DocumentedCommandTests {
    /// A command in a document: where it is and its words, from `vidrec` on.
    struct DocumentedCommand: CustomStringConvertible {
        let place: String
        let words: [String]
        var description: String { "\(place): \(words.joined(separator: " "))" }
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let documents = ["README.md", "docs/GUIDE.md"]

    /// The words of one shell line as `sh` splits them (single and double quotes,
    /// backslash escapes), up to a comment, a pipe, an output redirection or a second
    /// command; `nil` for an unmatched quote. (A `<` is kept: in a synopsis it opens a
    /// placeholder.)
    static func shellWords(_ line: String) -> [String]? {
        var words: [String] = []
        var word = "", inWord = false
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                word.append(character); escaped = false; continue
            }
            if let open = quote {
                if character == open { quote = nil } else if character == "\\" && open == "\"" { escaped = true } else { word.append(character) }
                continue
            }
            switch character {
            case "'", "\"": quote = character; inWord = true
            case "\\": escaped = true; inWord = true
            case " ", "\t":
                if inWord { words.append(word) }
                word = ""; inWord = false
            case "#" where !inWord, "|", ";", "&", ">":
                if inWord { words.append(word) }
                return quote == nil ? words : nil
            default: word.append(character); inWord = true
            }
        }
        guard quote == nil else { return nil }
        if inWord { words.append(word) }
        return words
    }

    /// The commands in `text`'s code blocks (lines indented by four spaces or more, or
    /// between fences) that run `vidrec` (from a shell prompt, a crontab line or an
    /// environment assignment), continued lines joined; synopsis lines (with `[`, `<`
    /// or `(`) are left out.
    static func commands(in text: String, named document: String) -> [DocumentedCommand] {
        var found: [DocumentedCommand] = []
        var fenced = false
        var carried: (number: Int, text: String)?
        for (index, raw) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") { fenced.toggle(); continue }
            let number: Int, line: String
            if let (first, before) = carried {
                (number, line) = (first, before + " " + trimmed)
                carried = nil
            } else if fenced || raw.hasPrefix("    ") {
                (number, line) = (index + 1, trimmed)
            } else {
                continue
            }
            if line.hasSuffix("\\") {
                carried = (number, String(line.dropLast()))
                continue
            }
            guard let words = shellWords(line),
                  let start = words.firstIndex(where: { $0 == "vidrec" || $0.hasSuffix("/bin/vidrec") }),
                  words[..<start].allSatisfy({ $0 == "$" || $0 == "sudo" || $0.contains("=") || $0.range(of: #"^[-*/,0-9]+$"#, options: .regularExpression) != nil }),
                  !words[start...].contains(where: { $0.hasPrefix("[") || $0.hasPrefix("<") || $0.hasPrefix("(") }),
                  words.count > start + 1
            else { continue }
            found.append(DocumentedCommand(place: "\(document):\(number)", words: Array(words[(start + 1)...])))
        }
        return found
    }

    static func documentedCommands() throws -> [DocumentedCommand] {
        try documents.flatMap { name in
            commands(in: try String(contentsOf: repository.appendingPathComponent(name), encoding: .utf8), named: name)
        }
    }

    /// Reads `words` (after `vidrec`) as `vidrec` does before it runs a subcommand: the
    /// subcommand's parser, then its own checks of the values.
    static func check(_ words: [String]) throws {
        if words == ["--version"] || words == ["--help"] { return }
        if words.first == "help" {
            _ = try CommandLineParser(spec: VidrecCLI.helpSpec).parse(Array(words.dropFirst()))
            return
        }
        guard let command = VidrecCLI.commands.first(where: { $0.spec.names.contains(words[0]) }) else {
            throw ParserError.unknownCommand(words[0], suggestion: nil)
        }
        let parsed = try CommandLineParser(spec: command.spec).parse(Array(words.dropFirst()))
        _ = try command.init(parsed)
    }

    @Test func theDocumentsCodeBlocksAreFoundWithTheirCommands() throws {
        let commands = try Self.documentedCommands()
        #expect(commands.count >= 30, "\(commands)")
        #expect(Set(commands.map { $0.words[0] }).isSuperset(of: ["start", "save", "trigger", "serve", "schedule", "upload"]),
                "\(commands)")
        // A crontab line, a continued line and a comment.
        let text = """
            */15 * * * * /usr/local/bin/vidrec start --quality low --max 60 --save --log $HOME/v.log
            vidrec start --quality medium \\
              --segment 5m --name 'a b'   # the comment
            vidrec stop [<id> | --all]
        prose about vidrec start --bogus
        """
        let found = Self.commands(in: text, named: "text").map(\.words)
        #expect(found == [["start", "--quality", "low", "--max", "60", "--save", "--log", "$HOME/v.log"],
                          ["start", "--quality", "medium", "--segment", "5m", "--name", "a b"]])
    }

    @Test func everyDocumentedCommandParsesAsWritten() throws {
        let commands = try Self.documentedCommands()
        print("DocumentedCommandTests: \(commands.count) documented commands: " + commands.map(\.description).joined(separator: "; "))
        for command in commands {
            #expect(throws: Never.self, "\(command)") { try Self.check(command.words) }
        }
        // The check fails where vidrec would: a length in a unit it does not know.
        #expect(throws: ParserError.self) { try Self.check(["start", "--max", "1x"]) }
        #expect(throws: ParserError.self) { try Self.check(["start", "--quality"]) }
    }

    /// The command to run for a documented `vidrec start`: its devices replaced by the
    /// test sources (a `--camera none` stays: a sound-only recording), its length by
    /// 1 s, and `$HOME` by `home`; `nil` for one that needs a server (`--live`,
    /// `--upload`).
    static func runnable(_ words: [String], home: String) -> [String]? {
        guard words.first == "start", !words.contains(where: { $0.hasPrefix("--live") || $0.hasPrefix("--upload") }) else { return nil }
        var result: [String] = []
        var index = words.startIndex
        while index < words.endIndex {
            let word = words[index]
            let value = index + 1 < words.endIndex ? words[index + 1] : nil
            switch word {
            case "--camera" where value != "none", "--mic":
                result += [word, "test"]; index += 2
            case "--max":
                result += [word, "1"]; index += 2
            default:
                result.append(word.replacingOccurrences(of: "$HOME", with: home)); index += 1
            }
        }
        if !result.contains("--camera") { result += ["--camera", "test"] }
        if !result.contains("--mic") { result += ["--mic", "test"] }
        if !result.contains("--max") { result += ["--max", "1"] }
        return result
    }

    @Test func everyDocumentedRecordingRunsOnTheTestSources() throws {
        let binary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("vidrec").path
        try #require(FileManager.default.isExecutableFile(atPath: binary), "build vidrec first: swift build")
        var ran = 0
        for command in try Self.documentedCommands() {
            let home = FileManager.default.temporaryDirectory.appendingPathComponent("vidrec-doc-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: home) }
            guard let arguments = Self.runnable(command.words, home: home) else { continue }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            process.environment = ["HOME": home, "PATH": "/usr/bin:/bin"]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(command) as \(arguments.joined(separator: " ")): \(said)")
            ran += 1
        }
        print("DocumentedCommandTests: \(ran) documented recordings ran on the test sources")
        #expect(ran >= 8, "documented recordings run: \(ran)")
    }
}

/// The docs hold together: the README stays a user's page of at most 400 lines (the
/// how-tos live in the GUIDE), and every relative link in the README and `docs/` leads
/// to a file that exists and, with an anchor, to a heading in it.
@Suite struct DocumentationLinkTests {
    static let repository = DocumentedCommandTests.repository

    /// The anchor GitHub makes of a heading: lower case, punctuation left out, spaces
    /// as hyphens.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
        })
    }

    static func anchors(inMarkdown text: String) -> Set<String> {
        var inFence = false
        var found: Set<String> = []
        for line in text.components(separatedBy: "\n") {
            if line.hasPrefix("```") { inFence.toggle(); continue }
            guard !inFence, line.hasPrefix("#") else { continue }
            found.insert(anchor(String(line.drop { $0 == "#" }).trimmingCharacters(in: .whitespaces)))
        }
        return found
    }

    @Test func theREADMEIsAtMost400Lines() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n").count - (readme.hasSuffix("\n") ? 1 : 0)
        #expect(lines <= 400, "README.md has \(lines) lines: move how-tos to docs/GUIDE.md")
    }

    @Test func everyRelativeLinkInTheDocsLeadsToAFileAndHeading() throws {
        let documents = ["README.md"] + (try FileManager.default.contentsOfDirectory(atPath: Self.repository.appendingPathComponent("docs").path))
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        let link = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        var checked = 0
        for document in documents {
            let url = Self.repository.appendingPathComponent(document)
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in link.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let target = (text as NSString).substring(with: match.range(at: 1))
                guard !target.contains("://"), !target.hasPrefix("mailto:") else { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? url : url.deletingLastPathComponent().appendingPathComponent(parts[0])
                #expect(FileManager.default.fileExists(atPath: file.path), "\(document): \(target): no such file")
                if parts.count == 2, file.pathExtension == "md", let linked = try? String(contentsOf: file, encoding: .utf8) {
                    #expect(Self.anchors(inMarkdown: linked).contains(parts[1]), "\(document): \(target): no such heading")
                }
                checked += 1
            }
        }
        #expect(checked >= 20, "links checked: \(checked)")
        #expect(Self.anchor("scripts/benchmark-webcam: USB webcams, compressed streams") == "scriptsbenchmark-webcam-usb-webcams-compressed-streams")
    }
}
