import Synchronization
import VidrecCore
import VidrecMedia

/// What a ``ControlAnswer`` may use of the running recording.
final class ControlledRecording: Sendable {
    /// The recording.
    let recorder: Recorder
    /// Tells the recording's user something, a whole line (prefix and newline).
    let warn: @Sendable (String) -> Void
    /// The pending folder, where `snap` may put a photo.
    let photos: String
    /// How a camera switched to is fitted (`--fit`).
    let fit: VideoFit
    /// The recording's newest progress.
    let progress: @Sendable () -> SessionProgress?
    private let current: Mutex<String>

    init(recorder: Recorder, warn: @escaping @Sendable (String) -> Void, photos: String, fit: VideoFit,
         camera: String, progress: @escaping @Sendable () -> SessionProgress?) {
        self.recorder = recorder
        self.warn = warn
        self.photos = photos
        self.fit = fit
        self.progress = progress
        current = Mutex(camera)
    }

    /// The camera recorded now: the first one, or the one switched to last.
    var camera: String {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }
}
