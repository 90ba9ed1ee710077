import Foundation
import Glibc
import Synchronization
import Testing
import VidrecHTTP
import VidrecSystem

/// The server on libmicrohttpd, driven by curl over 127.0.0.1.
@Suite struct HTTPServerTests {
    /// A handler that answers with what it was asked.
    static func echo(_ request: HTTPRequest) -> HTTPResponse {
        .json(["method": request.method, "path": request.path, "query": request.query,
               "origin": request.header("Origin") ?? "", "body": String(decoding: request.body, as: UTF8.self)])
    }

    static func object(_ reply: Curl.Reply) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: reply.body) as? [String: Any])
    }

    @Test func requestsArriveWholeWithTheirQueryHeadersAndBody() throws {
        let server = try HTTPServer(address: "127.0.0.1", port: 0, handler: Self.echo)
        #expect(server.port != 0)
        let base = "http://127.0.0.1:\(server.port)"
        let get = try Curl.run(base + "/album?sort=newest&n=3", ["-H", "Origin: http://example.test"])
        #expect(get.status == 200 && get.headers["content-type"] == "application/json")
        let fields = try Self.object(get)
        #expect(fields["method"] as? String == "GET" && fields["path"] as? String == "/album")
        #expect(fields["query"] as? [String: String] == ["sort": "newest", "n": "3"])
        #expect(fields["origin"] as? String == "http://example.test")
        // A body sent in pieces (curl sends 100 kB in several), whole.
        let text = String(repeating: "0123456789", count: 10_000)
        let post = try Curl.run(base + "/save", ["--data-binary", text])
        let posted = try Self.object(post)
        #expect(posted["method"] as? String == "POST" && (posted["body"] as? String)?.count == text.count)
        #expect(posted["body"] as? String == text)
        // More than the largest body: 413, and the handler is not asked.
        let large = NSTemporaryDirectory() + "vidrec-large-\(UUID().uuidString)"
        try Data(count: HTTPServerLimits().bodyBytes + 1).write(to: URL(fileURLWithPath: large))
        defer { try? FileManager.default.removeItem(atPath: large) }
        let refused = try Curl.run(base + "/save", ["--data-binary", "@" + large])
        #expect(refused.status == 413, "\(refused.status)")
        server.stop()
        server.stop()
        #expect(throws: Curl.CurlError.self) { try Curl.run(base + "/") }
    }

    /// A browser's player seeks by asking for ranges: each is answered with exactly
    /// those bytes and where they lie; one past the end is refused.
    @Test func aFileIsServedWholeOrByTheRangeAskedFor() throws {
        let folder = NSTemporaryDirectory() + "vidrec-range-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let content = Data((0..<1000).map { UInt8($0 % 251) })
        try content.write(to: URL(fileURLWithPath: folder + "/clip.mp4"))
        let server = try HTTPServer(address: "127.0.0.1", port: 0) { request in
            .file(in: folder, named: "clip.mp4", type: "video/mp4", rangeHeader: request.header("Range"))
        }
        let url = "http://127.0.0.1:\(server.port)/media/clip.mp4"
        let whole = try Curl.run(url)
        #expect(whole.status == 200 && whole.body == content && whole.headers["accept-ranges"] == "bytes")
        #expect(whole.headers["content-type"] == "video/mp4" && whole.headers["content-length"] == "1000")
        let middle = try Curl.run(url, ["-H", "Range: bytes=100-199"])
        #expect(middle.status == 206 && middle.body == content[100..<200])
        #expect(middle.headers["content-range"] == "bytes 100-199/1000")
        let open = try Curl.run(url, ["-H", "Range: bytes=990-"])
        #expect(open.status == 206 && open.body == content[990..<1000] && open.headers["content-range"] == "bytes 990-999/1000")
        let tail = try Curl.run(url, ["-H", "Range: bytes=-10"])
        #expect(tail.status == 206 && tail.body == content[990..<1000])
        let past = try Curl.run(url, ["-H", "Range: bytes=1000-"])
        #expect(past.status == 416 && past.headers["content-range"] == "bytes */1000")
        // Several ranges at once: the whole file (a server may ignore such a request).
        let several = try Curl.run(url, ["-H", "Range: bytes=0-1,5-6"])
        #expect(several.status == 200 && several.body == content)
    }

    @Test(arguments: [
        (nil, ByteRange.Request.whole), ("bytes=0-0", .range(ByteRange(offset: 0, count: 1))),
        ("bytes=5-2", .whole), ("bytes=-0", .unsatisfiable), ("bytes=-5000", .range(ByteRange(offset: 0, count: 1000))),
        ("bytes=10-99999", .range(ByteRange(offset: 10, count: 990))), ("items=0-5", .whole), ("bytes=x-", .whole),
    ] as [(String?, ByteRange.Request)])
    func rangeHeadersAreRead(header: String?, expected: ByteRange.Request) {
        #expect(ByteRange.request(header, length: 1000) == expected)
    }

    /// A stream (the viewfinder's pictures) is sent as it is read, without a length;
    /// stop() ends one that waits for more, so that stopping never hangs on a client
    /// that stays.
    @Test func aStreamIsSentAsItIsReadAndStopEndsOneThatWaits() throws {
        /// Sends its parts, then ends, or waits (until closed) for parts that never come.
        final class Parts: HTTPStream, @unchecked Sendable {
            let condition = NSCondition()
            var parts: [Data]
            var closed = false
            let waitsAtTheEnd: Bool
            /// Signalled when the stream has sent everything and waits for more.
            let waiting = DispatchSemaphore(value: 0)
            init(_ parts: [Data], waitsAtTheEnd: Bool) { self.parts = parts; self.waitsAtTheEnd = waitsAtTheEnd }
            func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
                condition.lock()
                defer { condition.unlock() }
                if parts.isEmpty, waitsAtTheEnd, !closed { waiting.signal() }
                while parts.isEmpty, waitsAtTheEnd, !closed { condition.wait() }
                guard !closed, !parts.isEmpty else { return nil }
                let part = parts.removeFirst()
                part.copyBytes(to: buffer)
                return part.count
            }
            func close() {
                condition.lock()
                closed = true
                condition.broadcast()
                condition.unlock()
            }
        }
        let parts = (0..<3).map { Data("part \($0)\n".utf8) }
        let forever = Parts(parts, waitsAtTheEnd: true)
        let server = try HTTPServer(address: "127.0.0.1", port: 0) { request in
            HTTPResponse(status: 200, headers: [("Content-Type", "text/plain")],
                         body: .stream(request.path == "/forever" ? forever : Parts(parts, waitsAtTheEnd: false)))
        }
        let finite = try Curl.run("http://127.0.0.1:\(server.port)/three")
        #expect(finite.status == 200 && String(decoding: finite.body, as: UTF8.self) == "part 0\npart 1\npart 2\n")
        #expect(finite.headers["content-length"] == nil, "\(finite.headers)")
        // A client reading a stream that never ends: once the stream waits for more,
        // stop() returns, and the client has what was sent (the connection may close
        // before the stream's closing chunk goes out).
        let reply = Mutex<Result<Curl.Reply, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let url = "http://127.0.0.1:\(server.port)/forever"
        Thread.detachNewThread {
            let result = Result { try Curl.run(url, ["--max-time", "120"], cutOff: true) }
            reply.withLock { $0 = result }
            done.signal()
        }
        forever.waiting.wait()
        server.stop()
        done.wait()
        let received = try #require(try reply.withLock { $0 }?.get())
        #expect(String(decoding: received.body, as: UTF8.self) == "part 0\npart 1\npart 2\n")
    }

    @Test func aPortInUseOrAnAddressThatIsNotOneGivesAClearError() throws {
        let first = try HTTPServer(address: "127.0.0.1", port: 0, handler: Self.echo)
        let taken = #expect(throws: HTTPServerError.self) {
            try HTTPServer(address: "127.0.0.1", port: first.port, handler: Self.echo)
        }
        #expect(taken?.code == EADDRINUSE && taken?.exitCode == .unavailable, "\(String(describing: taken))")
        #expect(taken?.description.hasPrefix("cannot listen on 127.0.0.1:\(first.port): Address already in use; ") == true)
        let malformed = #expect(throws: HTTPServerError.self) {
            try HTTPServer(address: "localhost", port: 0, handler: Self.echo)
        }
        #expect(malformed?.code == EINVAL, "\(String(describing: malformed))")
    }
}
