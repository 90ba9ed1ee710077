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
    /// The modes offered: every one, or those of the formats vidrec reads, as the
    /// discovery's ``ModeListing`` asked.
    public var modes: [CameraMode]
    /// Every pixel format offered (FOURCC names), also those whose modes were not listed.
    public var formats: [String]
    /// Controls (brightness, focus, exposure, …) with their ranges and values.
    public var controls: [CameraControl]
}
