import VidrecMedia

/// A device's comings and goings while the recording waits for it (`--reconnect`), as
/// the session tells them (``CaptureSession/run(outputs:stretcher:progress:reconnections:)``):
/// the camera (`.video`) or the microphone (`.audio`), by its name.
public enum ReconnectionEvent: Sendable {
    /// The device went away (why), and the session waits for it.
    case lost(MediaKind, device: String, reason: String)
    /// The device came back after this many seconds.
    case back(MediaKind, device: String, after: Double)
    /// The device did not come back within the window; why the last try to open it
    /// failed, if one did.
    case gaveUp(MediaKind, device: String, after: Double, lastTry: String?)

    /// Which device: `.video` for the camera, `.audio` for the microphone.
    public var kind: MediaKind {
        switch self {
        case let .lost(kind, _, _), let .back(kind, _, _), let .gaveUp(kind, _, _, _): kind
        }
    }
}
