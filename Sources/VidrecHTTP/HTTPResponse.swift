import Foundation
import Glibc

/// A response ``HTTPServer`` sends.
public struct HTTPResponse: Sendable {
    /// What the body is.
    public enum Body: Sendable {
        /// Bytes in memory.
        case bytes(Data)
        /// Part of a file: `count` bytes from `offset` (the server opens it when it
        /// sends the response, and closes it after).
        case file(path: String, offset: Int64, count: Int64)
        /// A body read as it is sent (``HTTPStream``).
        case stream(any HTTPStream)
    }

    /// The status code.
    public var status: Int
    /// Header fields, in order (`Content-Type`, …).
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: Body

    /// Creates a response; see the properties for the meaning of each argument.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes(Data())) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with `text` as its body (`text/plain` unless said otherwise).
    public static func text(_ text: String, status: Int = 200, type: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", type)], body: .bytes(Data(text.utf8)))
    }

    /// A JSON response of `object`, serialised with sorted keys, kept by no cache (what
    /// an API answers is the state now, and may name private things).
    public static func json(_ object: Any, status: Int = 200) -> HTTPResponse {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return HTTPResponse(status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                            body: .bytes(data))
    }

    /// An error as JSON (`{"error": message}`), for the page to show in one line.
    public static func error(_ message: String, status: Int) -> HTTPResponse {
        json(["error": message], status: status)
    }
}

extension HTTPResponse {
    /// The file at `path` as `type`, whole or the one range `rangeHeader` asks for
    /// (`206 Partial Content` with its `Content-Range`; `416` for a range past the end),
    /// with `Accept-Ranges: bytes` so that a browser's player seeks by asking for ranges.
    /// A file that cannot be read is a 404 with the reason.
    public static func file(_ path: String, type: String, rangeHeader: String?) -> HTTPResponse {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return .error("no such file: \((path as NSString).lastPathComponent)", status: 404)
        }
        let length = Int64(status.st_size)
        var headers: [(name: String, value: String)] = [("Content-Type", type), ("Accept-Ranges", "bytes")]
        switch ByteRange.request(rangeHeader, length: length) {
        case .whole:
            return HTTPResponse(status: 200, headers: headers, body: .file(path: path, offset: 0, count: length))
        case let .range(range):
            headers.append(("Content-Range", "bytes \(range.offset)-\(range.offset + range.count - 1)/\(length)"))
            return HTTPResponse(status: 206, headers: headers, body: .file(path: path, offset: range.offset, count: range.count))
        case .unsatisfiable:
            return HTTPResponse(status: 416, headers: [("Content-Range", "bytes */\(length)")])
        }
    }
}
