import CSystemShims
import Glibc

/// A descriptor that a thread blocked in `poll` watches beside its device or socket, so
/// that another thread can wake it at once (an eventfd): a camera's capture thread, or a
/// control socket's, ends as soon as it is stopped instead of at its next frame or its
/// next 100 ms wake-up.
///
/// Once fired, it stays readable until ``reset()``.
public final class WakeSignal: Sendable {
    /// The eventfd, for `poll` (``FileDescriptor/poll(_:orWake:milliseconds:_:)``).
    public let descriptor: FileDescriptor

    /// Makes an unfired signal.
    ///
    /// - Throws: ``SystemError`` when the eventfd cannot be made (EMFILE).
    public init() throws(SystemError) {
        descriptor = FileDescriptor(rawValue: try systemCall(.eventfd, "a wake-up signal") { csystem_eventfd() })
    }

    /// Wakes whoever polls the signal, now and until ``reset()``.
    public func fire() {
        var one: UInt64 = 1
        // The count only fails to grow at 2^64 - 1 (EAGAIN): it is readable then anyway.
        _ = Glibc.write(descriptor.rawValue, &one, MemoryLayout<UInt64>.size)
    }

    /// Makes the signal unfired again, for a thread that is started anew.
    public func reset() {
        var count: UInt64 = 0
        // Non-blocking: EAGAIN when it was not fired.
        _ = Glibc.read(descriptor.rawValue, &count, MemoryLayout<UInt64>.size)
    }

    deinit { descriptor.close() }
}
