import Foundation
import Glibc
import Testing

/// What a browser asks of `vidrec serve`, with curl (a real HTTP client): the token's
/// cookie on every request, the token header on a POST, and the MJPEG viewfinder read
/// picture by picture over a socket of its own.
struct ServeClient {
    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: Data
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body) as? [String: Any]) ?? [:] }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// `http://127.0.0.1:PORT` (`https://` with TLS).
    let base: String
    let port: Int
    let token: String
    /// The cookie the entry address sets, worked out here with openssl: named for the
    /// port, `HMAC-SHA256(token, "cookie PORT")`.
    let cookie: String

    /// The client of the server `serve` started: its address and token from the line
    /// it printed (`vidrec: serving http://127.0.0.1:PORT/?token=T …`).
    init(serving line: String) throws {
        let address = try #require(line.range(of: #"https?://127\.0\.0\.1:[0-9]+/\?token=[0-9a-f]{32}"#, options: .regularExpression),
                                   "no address in \(line)")
        let url = String(line[address])
        base = String(url.prefix { $0 != "?" }.dropLast())
        port = try #require(Int(base.split(separator: ":").last ?? ""))
        token = String(url.suffix(32))
        cookie = try ServeClient.cookie(token: token, port: port)
    }

    /// `vidrec-token-PORT=HMAC-SHA256(token, "cookie PORT")`, from `openssl dgst`.
    static func cookie(token: String, port: Int) throws -> String {
        "vidrec-token-\(port)=" + (try hmac(key: token, message: "cookie \(port)"))
    }

    /// HMAC-SHA256 of `message` under `key`, in hex, as openssl computes it.
    static func hmac(key: String, message: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["dgst", "-sha256", "-hmac", key]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(message.utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return try #require(text.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) })
    }

    /// `curl` for `path` with `arguments`; the cookie unless `cookie` is false.
    func request(_ path: String, _ arguments: [String] = [], cookie: Bool = true) throws -> Reply {
        let folder = NSTemporaryDirectory() + "vidrec-serve-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        // --insecure: the TLS test's certificate is its own, self-signed.
        process.arguments = ["--silent", "--show-error", "--insecure", "--max-time", "120", "--dump-header", folder + "/headers",
                             "--output", folder + "/body"] + (cookie ? ["--header", "Cookie: \(self.cookie)"] : [])
            + arguments + [base + path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "curl \(path): \(message)")
        let lines = try String(contentsOfFile: folder + "/headers", encoding: .utf8).components(separatedBy: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Reply(status: status, headers: headers, body: (try? Data(contentsOf: URL(fileURLWithPath: folder + "/body"))) ?? Data())
    }

    /// A POST of `fields` as JSON to `/api/ACTION`, with the token header (unless
    /// `tokenHeader` is false) and `origin`.
    func post(_ action: String, _ fields: [String: Any] = [:], tokenHeader: Bool = true, origin: String? = nil) throws -> Reply {
        let body = String(decoding: try JSONSerialization.data(withJSONObject: fields), as: UTF8.self)
        var arguments = ["--request", "POST", "--header", "Content-Type: application/json", "--data", body]
        if tokenHeader { arguments += ["--header", "X-Vidrec-Token: \(token)"] }
        if let origin { arguments += ["--header", "Origin: \(origin)"] }
        return try request("/api/" + action, arguments)
    }

    /// `/api/state`.
    func state() throws -> [String: Any] {
        let reply = try request("/api/state")
        try #require(reply.status == 200, "\(reply.status) \(reply.text)")
        return reply.json
    }

    /// The next `count` pictures of the viewfinder, as the browser's `<img>` reads the
    /// stream: each part's JPEG, read until the last one is whole. Asked in HTTP/1.0,
    /// so that the stream comes unchunked.
    func pictures(_ count: Int) throws -> [Data] {
        let socket = try openViewfinder()
        defer { close(socket) }
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let jpegs = ServeClient.parts(of: received)
            if jpegs.count >= count { return Array(jpegs.prefix(count)) }
            let n = recv(socket, &buffer, buffer.count, 0)
            try #require(n > 0, "the stream ended after \(jpegs.count) pictures: \(String(decoding: received.prefix(300), as: UTF8.self))")
            received.append(contentsOf: buffer[0..<n])
        }
    }

    /// A socket that has asked for the viewfinder (HTTP/1.0, with the cookie), for the
    /// caller to read and close.
    func openViewfinder() throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            try #require(Bool(false), "connect: \(reason)")
            return -1
        }
        let request = "GET /viewfinder.mjpg HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nCookie: \(cookie)\r\n\r\n"
        _ = request.withCString { send(socket, $0, strlen($0), 0) }
        return socket
    }

    /// A browser left open on the viewfinder: curl reading the MJPEG stream until
    /// `stop()`, so that the server keeps a picture coming.
    final class Watcher {
        private let process = Process()

        init(_ client: ServeClient) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
            process.arguments = ["--silent", "--http1.0", "--output", "/dev/null", "--header", "Cookie: \(client.cookie)",
                                 client.base + "/viewfinder.mjpg"]
            try process.run()
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }

        deinit { stop() }
    }

    /// Starts watching the viewfinder, as a page left open does.
    func watching() throws -> Watcher { try Watcher(self) }

    /// The whole JPEGs among the parts received so far (each part's headers end in a
    /// blank line, and its `Content-Length` says how much follows).
    private static func parts(of data: Data) -> [Data] {
        var jpegs: [Data] = []
        var rest = data[...]
        let blank = Data("\r\n\r\n".utf8)
        // The response's own headers first.
        guard let end = rest.range(of: blank) else { return [] }
        rest = rest[end.upperBound...]
        while let headerEnd = rest.range(of: blank) {
            let headers = String(decoding: rest[..<headerEnd.lowerBound], as: UTF8.self)
            guard let line = headers.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
                  let length = Int(line.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) else { break }
            let body = rest[headerEnd.upperBound...]
            guard body.count >= length else { break }
            jpegs.append(Data(body.prefix(length)))
            rest = body.dropFirst(length)
        }
        return jpegs
    }
}
