import Foundation
import VidrecMedia
import VidrecSystem

/// Tries to open a camera that went away, on a thread of its own (`vidrec.reconnect`),
/// every ``CameraReconnection/retryInterval`` until it opens or the session gives up:
/// opening a device can take a while, and the session's thread goes on placing sound
/// meanwhile. The session takes the opened camera with ``take()``.
final class CameraReconnector: @unchecked Sendable {
    // @unchecked Sendable: `found`, `lastError` and `cancelled` are guarded by `condition`.
    private let condition = NSCondition()
    private var found: (any VideoCaptureSource)?
    private var lastError: (any Error)?
    private var cancelled = false
    private var thread: NamedThread?

    /// Starts trying.
    init(_ reconnection: CameraReconnection) {
        thread = NamedThread(name: "vidrec.reconnect") { [self] in run(reconnection) }
    }

    private func run(_ reconnection: CameraReconnection) {
        while true {
            condition.lock()
            let stop = cancelled
            condition.unlock()
            if stop { return }
            do {
                let camera = try reconnection.reopen()
                condition.lock()
                defer { condition.unlock() }
                // A camera opened as the session gave up is closed with this object.
                found = camera
                return
            } catch {
                condition.lock()
                lastError = error
                if !cancelled {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: Double(reconnection.retryInterval) / 1e9))
                }
                condition.unlock()
            }
        }
    }

    /// The camera, opened and not started, once it is back; `nil` until then. Taken once.
    func take() -> (any VideoCaptureSource)? {
        condition.lock()
        defer { condition.unlock() }
        defer { found = nil }
        return found
    }

    /// Why the newest try failed.
    var lastFailure: (any Error)? {
        condition.lock()
        defer { condition.unlock() }
        return lastError
    }

    /// Stops trying and waits for the thread; a camera opened but not taken is closed.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        thread?.join()
        thread = nil
        condition.lock()
        found = nil
        condition.unlock()
    }
}
