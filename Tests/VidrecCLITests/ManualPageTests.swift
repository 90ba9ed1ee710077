import Foundation
import Testing
@testable import VidrecCLI
import VidrecMedia
import VidrecSystem

/// The manual page is made from the same specs as `--help`: groff finds nothing to warn
/// about, every subcommand and every option is in it with the text `--help` prints, and
/// the README's exit-code and file tables say what the page says.
@Suite struct ManualPageTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `arguments` with the page in a file as its last argument; returns the exit
    /// status, standard output and standard error.
    static func run(_ arguments: [String], input: String) throws -> (code: Int32, out: String, err: String) {
        let folder = try TemporaryHome()
        let page = folder.path + "/vidrec.1", out = folder.path + "/out", err = folder.path + "/err"
        try input.write(toFile: page, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments + [page]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(forWritingAtPath: out)
        process.standardError = FileHandle(forWritingAtPath: err)
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOfFile: out, encoding: .utf8),
                try String(contentsOfFile: err, encoding: .utf8))
    }

    /// Text with every run of white space made one space.
    static func flat(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    func page() throws -> String {
        let home = try TemporaryHome()
        let result = runVidrec(["manual"], home: home.path)
        #expect(result.code == 0 && result.err.isEmpty, "\(result.err)")
        return result.out
    }

    @Test func groffHasNothingToWarnAbout() throws {
        let result = try Self.run(["groff", "-man", "-ww", "-z"], input: try page())
        #expect(result.code == 0)
        #expect(result.err.isEmpty, "\(result.err)")
    }

    @Test func everyOptionOfEverySubcommandIsInThePageAndInHelpWithTheSameText() throws {
        let source = try page()
        // One paragraph a line, no hyphenation at that width: the text as typed.
        let rendered = try Self.run(["groff", "-man", "-Tutf8", "-rLL=4000n", "-P-cbou"], input: source)
        #expect(rendered.code == 0, "\(rendered.err)")
        let text = Self.flat(rendered.out)
        let home = try TemporaryHome()
        var checked = 0
        for spec in VidrecCLI.allSpecs {
            let help = runVidrec([spec.name, "--help"], home: home.path)
            let helpText = spec.name == "help" ? UsageRenderer.help(spec) : help.out
            #expect(text.contains(Self.flat(spec.abstract)), "\(spec.name)'s abstract")
            #expect(text.contains(Self.flat(UsageRenderer.usage(spec).replacingFirst("Usage: ", with: ""))), "\(spec.name)'s usage")
            for argument in spec.arguments {
                let term: String = switch argument.kind {
                case .option(let value): "--\(argument.name) \(value)" + (argument.isRepeatable ? " ..." : "")
                case .flag: "--\(argument.name)"
                case .positional: argument.name
                }
                #expect(text.contains(term + " " + Self.flat(argument.help)), "\(spec.name) \(term) in the page")
                #expect(helpText.contains(argument.synopsis) && helpText.contains(argument.help), "\(spec.name) \(term) in --help")
                checked += 1
            }
        }
        #expect(checked >= 60, "only \(checked) options")
        for code in ExitCode.allCases {
            #expect(text.contains("\(code.rawValue) " + Self.flat(code.meaning.replacingOccurrences(of: "`", with: ""))))
        }
    }

    @Test func theREADMEsExitCodesAndFilesAreThePages() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        func rows(after heading: String) -> [(String, String)] {
            guard let start = readme.range(of: "\n" + heading + "\n") else { return [] }
            var rows: [(String, String)] = []
            for line in readme[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
                .drop(while: { !$0.hasPrefix("|") }).prefix(while: { $0.hasPrefix("|") }) {
                let cells = line.dropFirst(2).dropLast(2).components(separatedBy: " | ")
                guard cells.count == 2, cells[0] != "---" else { continue }
                rows.append((cells[0], cells[1].replacingOccurrences(of: "\\|", with: "|")))
            }
            return rows.dropFirst().map { $0 }  // the header
        }
        let codes = rows(after: "## Exit codes")
        #expect(codes.map(\.0) == ExitCode.allCases.map { String($0.rawValue) })
        for (row, code) in zip(codes, ExitCode.allCases) { #expect(row.1 == code.meaning, "exit code \(code.rawValue)") }
        let files = rows(after: "### Where things go")
        #expect(files.map(\.0) == ManualReference.files.map(\.what))
        for (row, entry) in zip(files, ManualReference.files) { #expect(row.1 == entry.place, "\(entry.what)") }
    }

    /// The README's command summary (the first block under "## Commands") has a line for
    /// every subcommand, with exactly the options its spec declares: a new option, or one
    /// renamed or removed, fails here until the README says so too.
    @Test func theREADMEsCommandSummaryHasEveryCommandWithItsOptions() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "\n## Commands\n"))
        let lines = readme[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .drop(while: { !$0.hasPrefix("    vidrec ") }).prefix(while: { $0.hasPrefix("    ") })
        // Each command's text: its line and the lines indented under it.
        var summary: [String: String] = [:]
        var current: String?
        for line in lines {
            if line.hasPrefix("    vidrec ") {
                let name = line.dropFirst("    vidrec ".count).prefix(while: { $0 != " " })
                current = name.hasPrefix("-") ? nil : String(name)
                if let current { summary[current, default: ""] += " " + line }
            } else if let current {
                summary[current, default: ""] += " " + line
            }
        }
        for spec in VidrecCLI.allSpecs {
            let text = try #require(summary[spec.name], "no line for vidrec \(spec.name) in the README's command summary")
            let written = Set(text.matches(of: /--[a-z][a-z-]*/).map { String($0.output) }).subtracting(["--help"])  // every command has it
            let declared = Set(spec.arguments.compactMap { argument -> String? in
                if case .positional = argument.kind { return nil }
                return "--" + argument.name
            })
            #expect(written == declared, "vidrec \(spec.name): in the README only \(written.subtracting(declared).sorted()), in the spec only \(declared.subtracting(written).sorted())")
        }
        #expect(Set(summary.keys) == Set(VidrecCLI.allSpecs.map(\.name)), "README lines for commands that do not exist")
    }

    @Test func versionIsTheVERSIONFile() throws {
        let file = try String(contentsOf: Self.repository.appendingPathComponent("VERSION"), encoding: .utf8)
        #expect(VidrecCLI.version == file.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(VidrecCLI.version.split(separator: ".").count == 3)
        let home = try TemporaryHome()
        #expect(runVidrec(["--version"], home: home.path).out.hasPrefix("vidrec \(VidrecCLI.version) (FFmpeg "))
    }
}
