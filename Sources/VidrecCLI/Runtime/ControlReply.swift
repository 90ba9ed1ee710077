/// A running recording's answer to a ``ControlRequest``, as one JSON line: what was
/// done, or the error in words.
struct ControlReply: Codable, Sendable {
    /// Why the request failed; `nil` when it succeeded.
    var error: String?
    /// The photo's size.
    var width: Int?
    var height: Int?
    /// The camera it came from, as displayed.
    var camera: String?
}
