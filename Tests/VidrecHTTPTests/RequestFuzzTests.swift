import Foundation
import Glibc
import Testing
import VidrecHTTP
import VidrecSystem

/// Raw requests, mutated from well-formed ones by a seeded generator, sent to the real
/// server over loopback: every one is answered with a well-formed status line or the
/// connection closed, a file is only ever served from beneath its folder (the secret
/// beside it never shows), and the server answers a plain request afterwards. `VIDREC_FUZZ_CASES` sets the depth (a tenth of it here:
/// each case is a connection).
@Suite(.timeLimit(.minutes(5))) struct RequestFuzzTests {
    /// xorshift64*: a fixed sequence for a seed, so that a failing case can be replayed.
    struct Random: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 0x2545_F491_4F6C_DD1D
        }
    }

    static var cases: Int { (Int(ProcessInfo.processInfo.environment["VIDREC_FUZZ_CASES"] ?? "") ?? 2000) / 10 }

    static let pieces = [
        "GET", "POST", "HEAD", "PUT", "OPTIONS", "G\u{0}T", " ", "  ", "/", "//", "/media?name=", "a.mp4", "../secret", "%2e%2e%2fsecret",
        "%2F", "%25", "%", "%zz", "%00", "?", "&", "=", "#", "HTTP/1.1", "HTTP/1.0", "HTTP/9.9", "HTTP/1.1\r\n", "\r\n", "\n", "\r",
        "Host: 127.0.0.1", "Host: evil.example", "Host:", "Content-Length: 5", "Content-Length: -1", "Content-Length: 99999999999999999999",
        "Transfer-Encoding: chunked", "0\r\n\r\n", "5\r\nhello\r\n", "Range: bytes=0-1", "Range: bytes=-9999999999999999999",
        "Range: bytes=5-1", "Range: bytes=0-0,1-1", "X-Token: yes", "Cookie: a=b", "\u{7F}", "é", "\u{202E}", "\t", ":",
        String(repeating: "A", count: 300), String(repeating: "/..", count: 40),
    ]

    static func request(_ random: inout Random) -> [UInt8] {
        var lines = ["GET /media?name=a.mp4 HTTP/1.1", "Host: 127.0.0.1", "X-Token: yes"]
        if Bool.random(using: &random) { lines.append("Range: bytes=0-2") }
        var text = lines.joined(separator: "\r\n") + "\r\n\r\n"
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            var scalars = Array(text.unicodeScalars)
            let at = Int.random(in: 0...scalars.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: scalars.insert(contentsOf: pieces.randomElement(using: &random)!.unicodeScalars, at: at)
            case 1: if at < scalars.count { scalars.removeSubrange(at..<min(scalars.count, at + Int.random(in: 1...8, using: &random))) }
            case 2: if at < scalars.count { scalars[at] = Unicode.Scalar(UInt8.random(in: 0...127, using: &random)) }
            default: scalars.insert(contentsOf: "\r\n".unicodeScalars, at: at)
            }
            text = String(String.UnicodeScalarView(scalars))
        }
        var bytes = Array(text.utf8)
        if Int.random(in: 0..<8, using: &random) == 0 { bytes += (0..<Int.random(in: 1...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) } }
        return bytes
    }

    /// Sends `bytes` on a new connection and reads until the server closes it (or for
    /// `seconds`: the header limit closes a request left unfinished).
    static func exchange(_ bytes: [UInt8], port: UInt16, seconds: Double) throws -> [UInt8] {
        let fd = try #require(FloodTests.connect(from: "127.0.0.1", to: port))
        defer { close(fd) }
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(fd, Int32(SHUT_WR))
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = MonotonicClock.now() + Int64(seconds * 1e9)
        while MonotonicClock.now() < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            reply += buffer[0..<count]
        }
        return reply
    }

    @Test func mutatedRequestsAreAnsweredWellAndNeverReachBeyondTheFolder() throws {
        let planted = try FilesBeneathAFolderTests.Planted()
        let names = NameLog()
        let limits = HTTPServerLimits(headerSeconds: 2, bodyBytes: 1024)
        let server = try HTTPServer(address: "127.0.0.1", port: 0, limits: limits, admission: { request in
            request.header("x-token") == "yes" ? nil : .error("no token", status: 401)
        }) { request in
            let name = request.query["name"] ?? ""
            names.add(name)
            return .file(in: planted.folder, named: name, type: "video/mp4", rangeHeader: request.header("range"))
        }
        var answered = 0, closed = 0
        for seed in 1...UInt64(max(Self.cases, 1)) {
            var random = Random(state: seed &* 0x9E37_79B9_7F4A_7C15 | 1)
            let bytes = Self.request(&random)
            let reply = try Self.exchange(bytes, port: server.port, seconds: 4)
            let text = String(decoding: reply, as: UTF8.self)
            #expect(!text.contains(planted.secret.trimmingCharacters(in: .newlines)), "seed \(seed): the secret was served")
            guard !reply.isEmpty else { closed += 1; continue }
            answered += 1
            let statusLine = text.prefix { $0 != "\r" }
            #expect(statusLine.range(of: #"^HTTP/1\.[01] [1-5][0-9][0-9] "#, options: .regularExpression) != nil,
                    "seed \(seed): \(String(decoding: bytes, as: UTF8.self).debugDescription) → \(statusLine.debugDescription)")
        }
        #expect(answered > closed && answered > 0, "\(answered) answered, \(closed) closed unanswered")
        #expect(names.all.contains("a.mp4"))
        let plain = try Curl.run("http://127.0.0.1:\(server.port)/media?name=a.mp4", ["--header", "X-Token: yes"])
        #expect(plain.status == 200 && String(decoding: plain.body, as: UTF8.self) == "movie")
    }

    /// The names the handler was asked for.
    final class NameLog: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []
        func add(_ name: String) { lock.withLock { names.append(name) } }
        var all: [String] { lock.withLock { names } }
    }
}
