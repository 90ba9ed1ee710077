import Foundation

/// A fresh folder under the system's temporary directory, removed at deinit.
final class TemporaryDirectory {
    let path: String

    init(under base: String = NSTemporaryDirectory()) throws {
        path = (base as NSString).appendingPathComponent("vidrec-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
