import Foundation
import Testing
@testable import VidrecCLI

/// The folders show the architecture (docs/ARCHITECTURE.md, "Modules"): VidrecCore's
/// files sit in a folder per area, and `VidrecCLI/Commands/` holds the subcommands and
/// nothing else, each in a file named after it.
@Suite struct SourceLayoutTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")

    static func swiftFiles(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
    }

    @Test func everyCoreFileIsInAnAreaFolderTheArchitectureNames() throws {
        let core = Self.sources.appendingPathComponent("VidrecCore")
        #expect(try Self.swiftFiles(in: core).isEmpty, "files at VidrecCore's top level: put each in its area's folder")
        let architecture = try String(contentsOf: Self.sources.deletingLastPathComponent().appendingPathComponent("docs/ARCHITECTURE.md"),
                                      encoding: .utf8)
        let areas = try FileManager.default.contentsOfDirectory(atPath: core.path).sorted()
        #expect(areas.count >= 8, "\(areas)")
        for area in areas {
            #expect(architecture.contains(" \(area)/: "), "docs/ARCHITECTURE.md does not say what VidrecCore/\(area)/ holds")
        }
    }

    @Test func theCommandsFolderHoldsEverySubcommandAndNothingElse() throws {
        let files = try Self.swiftFiles(in: Self.sources.appendingPathComponent("VidrecCLI/Commands"))
        let commands = VidrecCLI.commands.map { "\($0).swift" }
        // trigger, pause and resume are one ControlCommand each.
        let named = Set(commands.filter { !$0.hasPrefix("ControlCommand<") }).union(["ControlCommand.swift"])
        #expect(Set(files) == named, "in Commands/ but not a command: \(Set(files).subtracting(named)); a command elsewhere: \(named.subtracting(files))")
    }
}
