import Foundation

/// curl, a real HTTP client, run against the server under test: the status, the
/// response's headers (names in lower case) and its body.
enum Curl {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
    }

    /// Runs `curl` with `arguments` (after its own: silent, headers to a file, a
    /// 20-s limit) for `url`.
    ///
    /// - Parameter cutOff: a response the server ended without its end (curl's status
    ///   18: a stream whose server stopped) is returned as far as it came.
    static func run(_ url: String, _ arguments: [String] = [], cutOff: Bool = false) throws -> Reply {
        let folder = NSTemporaryDirectory() + "vidrec-curl-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--silent", "--show-error", "--max-time", "20", "--insecure",
                             "--dump-header", folder + "/headers", "--output", folder + "/body"] + arguments + [url]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 || (cutOff && process.terminationStatus == 18) else { throw CurlError(message: message, status: process.terminationStatus) }
        let lines = try String(contentsOfFile: folder + "/headers", encoding: .utf8).components(separatedBy: "\r\n")
        // The last response's status line (after a 100 Continue, for one).
        let statusLine = lines.last { $0.hasPrefix("HTTP/") } ?? ""
        let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let body = (try? Data(contentsOf: URL(fileURLWithPath: folder + "/body"))) ?? Data()
        return Reply(status: status, headers: headers, body: body)
    }

    struct CurlError: Error, CustomStringConvertible {
        var message: String
        var status: Int32
        var description: String { "curl exited \(status): \(message)" }
    }
}
