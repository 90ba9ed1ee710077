import Foundation
import Glibc
import Synchronization
import Testing
import VidrecHTTP
import VidrecSystem

/// The server under floods, on loopback only: a second source address (127.0.0.2)
/// stands for another machine. Counts and times are bounded.
@Suite(.serialized) struct FloodTests {
    /// A TCP connection from `source` to 127.0.0.1:`port`, made without waiting for the
    /// server to accept it; `nil` when the kernel refuses one more.
    static func connect(from source: String, to port: UInt16) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = inet_addr(source)
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = port.bigEndian
        remote.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) } }
        let connected = withUnsafePointer(to: &remote) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, size) } }
        guard bound == 0, connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    static func send(_ text: String, on fd: Int32) -> Bool {
        text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) } == strlen(text)
    }

    /// Whether the server has closed `fd` (a read gives its end or an error) within
    /// `seconds`.
    static func closedByServer(_ fd: Int32, within seconds: Double) -> Bool {
        let deadline = MonotonicClock.now() + Int64(seconds * 1e9)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while MonotonicClock.now() < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let remaining = Int32(max(1, (deadline - MonotonicClock.now()) / 1_000_000))
            guard poll(&descriptor, 1, remaining) > 0 else { continue }
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return true }
        }
        return false
    }

    /// Room for a thousand sockets in this process.
    static func raiseOpenFiles() throws {
        let limit = try ProcessLimits.raiseOpenFiles()
        try #require(limit >= 2048, "the hard limit on open files (\(limit)) leaves no room for the flood")
    }

    /// A thousand half-open requests from another address: the server takes only its
    /// share of them, the owner at 127.0.0.1 is served throughout, and every one the
    /// server took is closed once it has waited the header limit, though it sent a
    /// header line now and then (a slowloris).
    @Test func theOwnerIsServedWhileAnotherAddressHoldsAThousandHalfOpenConnections() throws {
        try Self.raiseOpenFiles()
        let limits = HTTPServerLimits(connections: 256, connectionsPerAddress: 32, headerSeconds: 2)
        let server = try HTTPServer(address: "127.0.0.1", port: 0, limits: limits) { _ in .text("owner") }
        var flood: [Int32] = []
        defer { flood.forEach { close($0) } }
        for _ in 0..<1000 {
            guard let fd = Self.connect(from: "127.0.0.2", to: server.port) else { break }
            flood.append(fd)
            _ = Self.send("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n", on: fd)
        }
        #expect(flood.count >= 500, "the kernel took \(flood.count) connections")
        let owner = try Curl.run("http://127.0.0.1:\(server.port)/")
        #expect(owner.status == 200 && String(decoding: owner.body, as: UTF8.self) == "owner")
        // A header line a second keeps the idle timeout away, not the header limit.
        let slow = try #require(Self.connect(from: "127.0.0.3", to: server.port))
        defer { close(slow) }
        let started = MonotonicClock.now()
        #expect(Self.send("GET / HTTP/1.1\r\n", on: slow))
        var lines = 0
        while !Self.closedByServer(slow, within: 0.5), lines < 120 {
            guard Self.send("X-Slow-\(lines): 1\r\n", on: slow) else { break }
            lines += 1
        }
        let seconds = Double(MonotonicClock.now() - started) / 1e9
        #expect(seconds >= Double(limits.headerSeconds) && seconds < 30, "closed after \(seconds) s and \(lines) header lines")
        // Every flood connection is closed by now, or soon: the ones over the limits at
        // once, the ones taken at the header limit.
        let open = flood.filter { !Self.closedByServer($0, within: 10) }
        #expect(open.isEmpty, "\(open.count) flood connections still open")
        #expect(try Curl.run("http://127.0.0.1:\(server.port)/").status == 200)
    }

    /// A request the admission check refuses, or one whose body is larger than allowed,
    /// is answered at once: the handler never sees it, and its body is never read.
    @Test func aRefusedRequestIsAnsweredBeforeItsBodyIsRead() throws {
        let asked = Mutex(0)
        let limits = HTTPServerLimits(bodyBytes: 16 << 10)
        let server = try HTTPServer(address: "127.0.0.1", port: 0, limits: limits, admission: { request in
            request.header("x-token") == "right" ? nil : .error("no token", status: 401)
        }) { request in
            asked.withLock { $0 += 1 }
            return .text("\(request.body.count)")
        }
        // Announced and not sent: an answer that came means nothing was waited for.
        for (token, length, status) in [("wrong", 10_000_000, 401), ("right", 10_000_000, 413), ("wrong", 10, 401)] {
            let fd = try #require(Self.connect(from: "127.0.0.1", to: server.port))
            defer { close(fd) }
            #expect(Self.send("POST /api/start HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Token: \(token)\r\nContent-Length: \(length)\r\n\r\n", on: fd))
            var buffer = [UInt8](repeating: 0, count: 4096)
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            #expect(poll(&descriptor, 1, 20_000) == 1, "no answer before the body")
            let count = recv(fd, &buffer, buffer.count, 0)
            let reply = String(decoding: buffer[0..<max(0, count)], as: UTF8.self)
            #expect(reply.hasPrefix("HTTP/1.1 \(status) "), "\(token) \(length): \(reply)")
        }
        let small = try Curl.run("http://127.0.0.1:\(server.port)/api/start", ["-H", "X-Token: right", "--data-binary", "1234"])
        #expect(small.status == 200 && String(decoding: small.body, as: UTF8.self) == "4")
        #expect(asked.withLock { $0 } == 1)
    }
}
