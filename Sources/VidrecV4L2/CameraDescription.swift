import VidrecMedia

/// What `vidrec devices` shows of a camera.
public struct CameraDescription: Sendable, Equatable {
    /// `/dev/videoN`.
    public var path: String
    /// The card name (`vivid`, `HD Pro Webcam C920`).
    public var name: String
    /// The driver (`uvcvideo`, `vivid`).
    public var driver: String
    /// The bus (`usb-0000:00:14.0-1`, `platform:vivid-000`).
    public var bus: String
    /// Every mode offered.
    public var modes: [CameraMode]
    /// Controls (brightness, focus, exposure, …) with their ranges and values.
    public var controls: [CameraControl]
}

/// A camera control, as VIDIOC_QUERYCTRL and VIDIOC_G_CTRL report it.
public struct CameraControl: Sendable, Equatable {
    public var name: String
    public var minimum: Int
    public var maximum: Int
    public var step: Int
    public var defaultValue: Int
    public var value: Int?
}
