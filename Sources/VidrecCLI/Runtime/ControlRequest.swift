/// What another vidrec asks a running recording over its control socket, as one JSON
/// line: `{"command":"snap","path":"…/ID.partial.jpg","width":1280}`,
/// `{"command":"switch","camera":"1"}`.
struct ControlRequest: Codable, Sendable {
    /// `snap`: take a photo from the running camera; `switch`: go on recording from
    /// another camera.
    var command: String
    /// Where the photo goes (a file in the pending area).
    var path: String?
    /// The photo's width (`nil`: the camera's frame size).
    var width: Int?
    /// The camera to switch to, as `--camera` names one.
    var camera: String?
}
