import VidrecMedia
import VidrecSystem

/// How a recording outlives a camera that goes away (`--reconnect`): a USB webcam
/// unplugged or reset, a camera whose driver ends its stream with an error, or one that
/// sends nothing for ``CaptureSession/stallTimeout``. The movie waits, with its sound
/// kept, for up to ``window``; a camera that comes back in time goes on in the same
/// file, and the slots it missed hold its last picture. One that does not ends the
/// recording where the camera went, as without it.
public struct CameraReconnection: Sendable {
    /// The longest wait for the camera, in nanoseconds.
    public let window: Int64
    /// How long the session waits between two tries to open the camera, in nanoseconds.
    public let retryInterval: Int64
    /// The folders whose changes set off a try at once (``DeviceWatch``).
    public let watchedFolders: [String]
    /// Opens the same camera again in the same mode, not started; throws while it is
    /// not there (or is another camera now).
    public let reopen: @Sendable () throws -> any VideoCaptureSource

    /// The window a recording waits for its camera when `--reconnect` is not given.
    public static let defaultWindow = Rational(30)

    /// Creates a reconnection.
    ///
    /// - Parameters:
    ///   - window: the longest wait, in seconds; greater than 0.
    ///   - retryInterval: the time between two tries to open the camera, in seconds.
    ///   - watchedFolders: the folders whose changes set off a try at once.
    ///   - reopen: opens the camera again (see ``reopen``).
    public init(window: Rational, retryInterval: Rational = Rational(1, 2),
                watchedFolders: [String] = DeviceWatch.deviceFolders,
                reopen: @escaping @Sendable () throws -> any VideoCaptureSource) {
        self.window = (window * Rational(Duration.nanosecondsPerSecond)).rounded
        self.retryInterval = (retryInterval * Rational(Duration.nanosecondsPerSecond)).rounded
        self.watchedFolders = watchedFolders
        self.reopen = reopen
    }
}

extension DeviceReconnector where Device == any VideoCaptureSource {
    /// Tries to open the camera `reconnection` reopens.
    convenience init(_ reconnection: CameraReconnection) {
        self.init(retryInterval: reconnection.retryInterval, folders: reconnection.watchedFolders, reopen: reconnection.reopen)
    }
}
