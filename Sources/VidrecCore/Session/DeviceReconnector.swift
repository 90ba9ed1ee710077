import Foundation
import VidrecMedia
import VidrecSystem

/// Tries to open a device that went away (a camera or a microphone), on a thread of its
/// own (`vidrec.reconnect`), until it opens or the session gives up: opening a device
/// can take a while, and the session's thread goes on placing the other stream
/// meanwhile. It tries again as soon as something appears in the device folders
/// (``DeviceWatch``: the kernel's node, udev's stable name, udev giving the node its
/// group), and every `retryInterval` whatever happens. The session takes the opened
/// device with ``take()``.
final class DeviceReconnector<Device: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `found`, `lastError` and `cancelled` are guarded by `condition`.
    private let condition = NSCondition()
    private var found: Device?
    private var lastError: (any Error)?
    private var cancelled = false
    private var thread: NamedThread?
    /// What wakes the thread for the next try at once, and what wakes it to stop; `nil`
    /// when no inotify instance or eventfd could be made (it then tries on the interval).
    private let watch: (folders: DeviceWatch, stop: WakeSignal)?

    /// Starts trying: `reopen` opens the device (not started) or throws while it is not
    /// there; tries are at most `retryInterval` nanoseconds apart, and one follows each
    /// change in `folders`.
    init(retryInterval: Int64, folders: [String] = DeviceWatch.deviceFolders,
         reopen: @escaping @Sendable () throws -> Device) {
        if let folders = try? DeviceWatch(folders: folders), let stop = try? WakeSignal() {
            watch = (folders, stop)
        } else {
            watch = nil
        }
        thread = NamedThread(name: "vidrec.reconnect") { [self] in run(retryInterval: retryInterval, reopen: reopen) }
    }

    private func run(retryInterval: Int64, reopen: @Sendable () throws -> Device) {
        while true {
            condition.lock()
            let stop = cancelled
            condition.unlock()
            if stop { return }
            do {
                let device = try reopen()
                condition.lock()
                defer { condition.unlock() }
                // A device opened as the session gave up is closed with this object.
                found = device
                return
            } catch {
                condition.lock()
                lastError = error
                if let watch {
                    let stop = cancelled
                    condition.unlock()
                    if !stop { _ = watch.folders.wait(milliseconds: Int32(clamping: retryInterval / 1_000_000), orWake: watch.stop) }
                } else {
                    if !cancelled { _ = condition.wait(until: Date(timeIntervalSinceNow: Double(retryInterval) / 1e9)) }
                    condition.unlock()
                }
            }
        }
    }

    /// The device, opened and not started, once it is back; `nil` until then. Taken once.
    func take() -> Device? {
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

    /// Stops trying and waits for the thread; a device opened but not taken is closed.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        watch?.stop.fire()
        thread?.join()
        thread = nil
        condition.lock()
        found = nil
        condition.unlock()
    }
}
