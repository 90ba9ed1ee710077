import Foundation
import Testing

/// Every file-system and process call in `Sources/` goes through VidrecSystem's seam
/// (``systemCall``, ``FileSystem``, ``FileDescriptor``), where its errors get their
/// operation and path and where tests inject faults: a direct `unlink` or `kill`
/// elsewhere would fail without either.
@Suite struct SyscallSeamTests {
    /// The C functions that must go through the seam outside VidrecSystem.
    static let calls = ["unlink", "unlinkat", "rmdir", "chmod", "fchmod", "chown", "kill", "access", "usleep", "sleep", "nanosleep",
                        "rename", "renameat", "renameat2", "mkdir", "mkdirat", "stat", "lstat", "fstat", "fstatat", "statvfs",
                        "link", "linkat", "symlink", "truncate", "ftruncate", "fsync", "fdatasync", "opendir", "readlink"]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources").path

    /// `file:line: text` for each call of one of ``calls`` outside a `systemCall`
    /// closure (opened on its line or ending the line before it) in the Swift files
    /// under `folder`.
    static func directCalls(under folder: String) throws -> [String] {
        let pattern = try NSRegularExpression(pattern: #"(?<![.\w])(?:Glibc\.)?("# + calls.joined(separator: "|") + #")\((?!\))"#)
        var found: [String] = []
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []
        for file in files where file.hasSuffix(".swift") && !file.hasPrefix("VidrecSystem/") {
            let lines = try String(contentsOfFile: folder + "/" + file, encoding: .utf8).components(separatedBy: "\n")
            for (index, line) in lines.enumerated() {
                guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//"),
                      let match = pattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) else { continue }
                let name = (line as NSString).substring(with: match.range(at: 1))
                if line.contains("func \(name)(") { continue }
                let opener = index > 0 ? lines[index - 1].trimmingCharacters(in: .whitespaces) : ""
                if line.contains("systemCall") || (opener.contains("systemCall") && opener.hasSuffix("{")) { continue }
                found.append("\(file):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found
    }

    @Test func fileSystemAndProcessCallsGoThroughTheSeam() throws {
        #expect(try Self.directCalls(under: Self.sources) == [])
    }

    /// The scan finds what it looks for: it is not a test that cannot fail.
    @Test func theScanFindsADirectCall() throws {
        let folder = NSTemporaryDirectory() + "vidrec-seam-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/VidrecCore", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try """
            var info = stat()
            _ = rmdir(path)
            try systemCall(.unlink, path) { unlink(path) }
            guard Glibc.kill(pid, 0) == 0 else { return }
            // kill(pid, 9) in a comment
            try store.write(x); handle.close()
            """.write(toFile: folder + "/VidrecCore/Example.swift", atomically: true, encoding: .utf8)
        #expect(try Self.directCalls(under: folder) == ["VidrecCore/Example.swift:2: _ = rmdir(path)",
                                                        "VidrecCore/Example.swift:4: guard Glibc.kill(pid, 0) == 0 else { return }"])
    }
}
