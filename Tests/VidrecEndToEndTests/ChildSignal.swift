import CSystemShims
import Foundation
import Glibc

/// Signals one child process and never another: a PID is reused once its process has
/// ended and been reaped (Foundation reaps at once, and this machine's pid_max may be
/// 32768), so a signal sent by number after the end could stop another test's
/// recording. A pidfd, taken while the child runs, refers to that child alone.
final class ChildSignal {
    private let descriptor: Int32

    /// Takes a pidfd for `process`, which must have been started.
    init(_ process: Process) {
        descriptor = csystem_pidfd_open(process.processIdentifier)
        precondition(descriptor >= 0 || !process.isRunning, "pidfd_open: \(String(cString: strerror(errno)))")
    }

    /// Sends `number`; does nothing once the child has ended.
    func send(_ number: Int32) {
        guard descriptor >= 0 else { return }
        _ = csystem_pidfd_send_signal(descriptor, number)
    }

    deinit { if descriptor >= 0 { close(descriptor) } }
}
