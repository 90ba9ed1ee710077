import VidrecMedia
import VidrecSystem

/// How a recording outlives a microphone that goes away (`--reconnect`): a USB
/// microphone (or a webcam's) unplugged, one whose driver ends its stream with an
/// error, or one that sends nothing for ``CaptureSession/stallTimeout``. The movie goes
/// on with silence in real time for up to ``window``; a microphone that comes back in
/// time goes on in the same file, its sound placed by its capture times again. One that
/// does not ends the recording where it went, as without it.
public struct MicrophoneReconnection: Sendable {
    /// The longest wait for the microphone, in nanoseconds.
    public let window: Int64
    /// How long the session waits between two tries to open it, in nanoseconds.
    public let retryInterval: Int64
    /// The folders whose changes set off a try at once (``DeviceWatch``).
    public let watchedFolders: [String]
    /// Opens the same microphone again in the same format, not started; throws while it
    /// is not there (or is another microphone now).
    public let reopen: @Sendable () throws -> any AudioCaptureSource

    /// Creates a reconnection.
    ///
    /// - Parameters:
    ///   - window: the longest wait, in seconds; greater than 0.
    ///   - retryInterval: the time between two tries to open the microphone, in seconds.
    ///   - watchedFolders: the folders whose changes set off a try at once.
    ///   - reopen: opens the microphone again (see ``reopen``).
    public init(window: Rational, retryInterval: Rational = Rational(1, 2),
                watchedFolders: [String] = DeviceWatch.deviceFolders,
                reopen: @escaping @Sendable () throws -> any AudioCaptureSource) {
        self.window = (window * Rational(Duration.nanosecondsPerSecond)).rounded
        self.retryInterval = (retryInterval * Rational(Duration.nanosecondsPerSecond)).rounded
        self.watchedFolders = watchedFolders
        self.reopen = reopen
    }
}

extension DeviceReconnector where Device == any AudioCaptureSource {
    /// Tries to open the microphone `reconnection` reopens.
    convenience init(_ reconnection: MicrophoneReconnection) {
        self.init(retryInterval: reconnection.retryInterval, folders: reconnection.watchedFolders, reopen: reconnection.reopen)
    }
}
