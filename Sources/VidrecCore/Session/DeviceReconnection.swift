import VidrecMedia
import VidrecSystem

/// How a recording outlives a device that goes away (`--reconnect`): a camera
/// (``CameraReconnection``) or a microphone (``MicrophoneReconnection``) unplugged or
/// reset, one whose driver ends its stream with an error, or one that sends nothing for
/// ``CaptureSession/stallTimeout``. The movie goes on for up to ``window`` (the last
/// picture held, or silence); a device that comes back in time goes on in the same file.
/// One that does not ends the recording where it went, as without it.
public struct DeviceReconnection<Device: Sendable>: Sendable {
    /// The longest wait for the device, in nanoseconds.
    public let window: Int64
    /// How long the session waits between two tries to open it, in nanoseconds.
    public let retryInterval: Int64
    /// The folders whose changes set off a try at once (``DeviceWatch``).
    public let watchedFolders: [String]
    /// Opens the same device again, as it was opened at the start (the camera in the same
    /// mode, the microphone in the same format), not started; throws while it is not
    /// there (or is another device now).
    public let reopen: @Sendable () throws -> Device

    /// Creates a reconnection.
    ///
    /// - Parameters:
    ///   - window: the longest wait, in seconds; greater than 0.
    ///   - retryInterval: the time between two tries to open the device, in seconds.
    ///   - watchedFolders: the folders whose changes set off a try at once.
    ///   - reopen: opens the device again (see ``reopen``).
    public init(window: Rational, retryInterval: Rational = Rational(1, 2),
                watchedFolders: [String] = DeviceWatch.deviceFolders,
                reopen: @escaping @Sendable () throws -> Device) {
        self.window = (window * Rational(Duration.nanosecondsPerSecond)).rounded
        self.retryInterval = (retryInterval * Rational(Duration.nanosecondsPerSecond)).rounded
        self.watchedFolders = watchedFolders
        self.reopen = reopen
    }
}

extension DeviceReconnector {
    /// Tries to open the device `reconnection` reopens.
    convenience init(_ reconnection: DeviceReconnection<Device>) {
        self.init(retryInterval: reconnection.retryInterval, folders: reconnection.watchedFolders, reopen: reconnection.reopen)
    }
}
