/// What another vidrec asks a running recording over its control socket, as one JSON
/// line: `{"command":"snap","path":"…/ID.partial.jpg","width":1280}`,
/// `{"command":"switch","camera":"1"}`, `{"command":"viewfinder","after":12}`.
struct ControlRequest: Codable, Sendable {
    /// `snap`: take a photo from the running camera; `switch`: go on recording from
    /// another camera; `viewfinder`: the newest small picture of the recorded frames,
    /// with the recording's progress.
    var command: String
    /// Where the photo goes (a file in the pending area).
    var path: String?
    /// The photo's width (`nil`: the camera's frame size).
    var width: Int?
    /// The camera to switch to, as `--camera` names one.
    var camera: String?
    /// `viewfinder`: the number of the last picture the asker has (`nil`: none); the
    /// reply waits up to a second for a newer one.
    var after: Int64?
    /// `viewfinder`: `false` asks for the progress alone, without watching (a recording
    /// whose viewfinder nobody watches encodes no pictures).
    var watch: Bool?
}

extension ControlRequest {
    /// A request by its name, with what it carries.
    init(_ name: ControlName, path: String? = nil, width: Int? = nil, camera: String? = nil, after: Int64? = nil, watch: Bool? = nil) {
        self.init(command: name.rawValue, path: path, width: width, camera: camera, after: after, watch: watch)
    }

    /// The request's name, when it is one this vidrec knows.
    var name: ControlName? { ControlName(rawValue: command) }
}
