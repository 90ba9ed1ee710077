import Foundation
import Synchronization
import Testing
import VidrecHTTP

/// The viewfinder's MJPEG stream as a browser receives it: each picture a part of its
/// own, with its type and length (and when its frame was captured, where known), in
/// order.
@Suite struct MultipartPictureStreamTests {
    @Test func picturesArriveAsPartsWithTheirLengthInOrder() throws {
        let pictures = (1...3).map { number in Data(repeating: UInt8(number), count: 1000 * number) }
        // Gives picture n + 1 after picture n; after the third, signals that the client
        // has been sent everything, and gives nothing more.
        let allGiven = DispatchSemaphore(value: 0)
        let signalled = Mutex(false)
        let server = try HTTPServer(address: "127.0.0.1", port: 0) { _ in
            let stream = MultipartPictureStream { after in
                let next = Int(after ?? 0)
                guard next < pictures.count else {
                    if !signalled.withLock({ value in defer { value = true }; return value }) { allGiven.signal() }
                    usleep(20_000)
                    return nil
                }
                return (pictures[next], Int64(next + 1), next == 1 ? 123_456_789 : nil)
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", MultipartPictureStream.contentType)], body: .stream(stream))
        }
        let reply = Mutex<Result<Curl.Reply, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let url = "http://127.0.0.1:\(server.port)/viewfinder.mjpg"
        Thread.detachNewThread {
            let result = Result { try Curl.run(url, ["--max-time", "120"], cutOff: true) }
            reply.withLock { $0 = result }
            done.signal()
        }
        allGiven.wait()
        server.stop()
        done.wait()
        let received = try #require(try reply.withLock { $0 }?.get())
        #expect(received.headers["content-type"] == MultipartPictureStream.contentType)
        // Split into parts: boundary line, headers, blank line, the picture, CRLF.
        var rest = received.body
        for (index, picture) in pictures.enumerated() {
            let captured = index == 1 ? "X-Vidrec-Captured: 123456789\r\n" : ""
            let header = Data("--\(MultipartPictureStream.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(picture.count)\r\n\(captured)\r\n".utf8)
            try #require(rest.starts(with: header), "part of \(picture.count) bytes")
            rest = rest.dropFirst(header.count)
            #expect(rest.prefix(picture.count) == picture)
            rest = rest.dropFirst(picture.count)
            #expect(rest.starts(with: Data("\r\n".utf8)))
            rest = rest.dropFirst(2)
        }
        #expect(rest.isEmpty, "\(rest.count) bytes after the last part")
    }
}
