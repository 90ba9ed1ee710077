import VidrecMedia

/// A camera control, as VIDIOC_QUERYCTRL and VIDIOC_G_CTRL report it.
public struct CameraControl: Sendable, Equatable {
    public var name: String
    public var minimum: Int
    public var maximum: Int
    public var step: Int
    public var defaultValue: Int
    public var value: Int?
}
