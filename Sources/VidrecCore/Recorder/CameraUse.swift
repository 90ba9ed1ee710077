/// One camera a recording was made from, and from when (`vidrec switch` makes more than
/// one), as the sidecar lists them.
public struct CameraUse: Codable, Sendable, Equatable {
    /// The camera, as displayed (`/dev/video1 (vivid)`).
    public var camera: String
    /// Its device path (`nil` for the test camera).
    public var path: String?
    /// The mode it was recorded in (`nil` for the test camera).
    public var mode: String?
    /// The media time from which it was recorded, in seconds.
    public var from: Double

    /// Creates a camera use; see the properties for the meaning of each argument.
    public init(camera: String, path: String?, mode: String?, from: Double) {
        self.camera = camera
        self.path = path
        self.mode = mode
        self.from = from
    }
}
