import VidrecMedia

/// A camera opened by ``RecordingDevices/openCamera(adjusting:)``.
public struct OpenedCamera {
    /// The capture source.
    public var source: any VideoCaptureSource
    /// Its device path, for refusing a second recording from it (`nil`: none).
    public var path: String?
    /// The mode chosen, for the sidecar (`640x480 YUYV 25 fps, crop`); `nil` when there
    /// is no choice (the test camera).
    public var mode: String?

    /// The camera's compressed stream, when the movie stores it as it is
    /// (``VideoEncoding/copied``): the movie output reads its header and asks it for
    /// keyframes.
    public var copiedStream: (any CompressedVideoSource)?

    /// Creates an opened camera; see the properties for the meaning of each argument.
    public init(source: any VideoCaptureSource, path: String?, mode: String?, copiedStream: (any CompressedVideoSource)? = nil) {
        self.source = source
        self.path = path
        self.mode = mode
        self.copiedStream = copiedStream
    }
}
