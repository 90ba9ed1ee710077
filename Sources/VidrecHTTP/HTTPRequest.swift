import Foundation

/// One HTTP request, whole, as ``HTTPServer`` hands it to its handler.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, …
    public let method: String
    /// The path, without the query (`/media/clip.mp4`), its percent escapes decoded once
    /// by the daemon (`/media/50%25off.mp4` arrives as `/media/50%off.mp4`): a handler
    /// never decodes it again.
    public let path: String
    /// The query's arguments, decoded.
    public let query: [String: String]
    /// The header fields, names in lower case.
    public let headers: [String: String]
    /// The body (at most ``HTTPServerLimits/bodyBytes``; empty for the admission check).
    public let body: Data

    /// Creates a request; see the properties for the meaning of each argument.
    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { first, _ in first }
        self.body = body
    }

    /// The header field `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
