/// What another vidrec asks a running recording over its control socket, as one JSON
/// line: `{"command":"snap","path":"…/ID.partial.jpg","width":1280}`.
struct ControlRequest: Codable, Sendable {
    /// `snap`: take a photo from the running camera.
    var command: String
    /// Where the photo goes (a file in the pending area).
    var path: String?
    /// The photo's width (`nil`: the camera's frame size).
    var width: Int?
}
