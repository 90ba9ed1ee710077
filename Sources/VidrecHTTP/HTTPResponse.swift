import Foundation
import Glibc
import VidrecSystem

/// A response ``HTTPServer`` sends.
public struct HTTPResponse: Sendable {
    /// What the body is.
    public enum Body: Sendable {
        /// Bytes in memory.
        case bytes(Data)
        /// Part of an open file: `count` bytes from `offset` (the server sends from the
        /// descriptor that was checked, and closes it after).
        case file(OpenFile, offset: Int64, count: Int64)
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
    /// The file `name` beneath the folder `directory` as `type`, whole or the one range
    /// `rangeHeader` asks for (`206 Partial Content` with its `Content-Range`; `416` for a
    /// range past the end), with `Accept-Ranges: bytes` so that a browser's player seeks
    /// by asking for ranges.
    ///
    /// The file is opened beneath `directory` without following any symbolic link
    /// (``FileDescriptor/openBeneath(_:_:subject:)``), must be a regular file, and is
    /// sent from that same descriptor: what was checked is what is served. Anything
    /// else (a link, a folder, a FIFO, a name that leaves the folder, no such file) is a
    /// 404 that names only `name`.
    public static func file(in directory: String, named name: String, type: String, rangeHeader: String?) -> HTTPResponse {
        let notFound = HTTPResponse.error("no such file: \((name as NSString).lastPathComponent)", status: 404)
        guard let folder = try? FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY) else { return notFound }
        defer { folder.close() }
        // O_NONBLOCK: a FIFO planted under the name is never waited on.
        guard let opened = try? folder.openBeneath(name, O_RDONLY | O_NONBLOCK, subject: name) else { return notFound }
        let file = OpenFile(opened)
        guard let status = try? opened.status(name), status.st_mode & S_IFMT == S_IFREG else { return notFound }
        let length = Int64(status.st_size)
        var headers: [(name: String, value: String)] = [("Content-Type", type), ("Accept-Ranges", "bytes")]
        switch ByteRange.request(rangeHeader, length: length) {
        case .whole:
            return HTTPResponse(status: 200, headers: headers, body: .file(file, offset: 0, count: length))
        case let .range(range):
            headers.append(("Content-Range", "bytes \(range.offset)-\(range.offset + range.count - 1)/\(length)"))
            return HTTPResponse(status: 206, headers: headers, body: .file(file, offset: range.offset, count: range.count))
        case .unsatisfiable:
            return HTTPResponse(status: 416, headers: [("Content-Range", "bytes */\(length)")])
        }
    }
}
