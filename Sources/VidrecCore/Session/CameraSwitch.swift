import Foundation
import VidrecMedia

/// A request to go on recording from another camera (`vidrec switch`), handed from the
/// asking thread to the session's loop, which makes the switch between two frames and
/// answers.
final class CameraSwitch: @unchecked Sendable {
    // @unchecked Sendable: `camera` is handed over once; `result` is guarded by `condition`.

    /// The camera to record from, opened but not started.
    let camera: any VideoCaptureSource
    private let condition = NSCondition()
    private var result: Result<Rational, any Error>?

    init(camera: any VideoCaptureSource) {
        self.camera = camera
    }

    /// Answers the asking thread: the media time from which the new camera records, or
    /// why it could not.
    func finish(_ result: Result<Rational, any Error>) {
        condition.lock()
        self.result = result
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for the answer.
    func wait() throws -> Rational {
        condition.lock()
        defer { condition.unlock() }
        while result == nil { condition.wait() }
        return try result!.get()
    }
}
