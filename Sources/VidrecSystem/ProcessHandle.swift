import CSystemShims
import Glibc

/// A process, held by a pidfd: signals sent through it reach that process and never
/// another that later gets its PID. Owns the descriptor and closes it when it goes.
public final class ProcessHandle: Sendable {
    /// The process ID it was opened for.
    public let pid: Int32
    private let descriptor: FileDescriptor

    /// Opens a handle on process `pid`.
    ///
    /// - Throws: ``SystemError`` (ESRCH when there is no such process).
    /// The corresponding C function is `pidfd_open`.
    public init(pid: Int32) throws(SystemError) {
        precondition(pid > 0)
        self.pid = pid
        descriptor = FileDescriptor(rawValue: try systemCall(.pidfdOpen, "process \(pid)") { csystem_pidfd_open(pid) })
    }

    /// Sends `signal` to the process.
    ///
    /// - Throws: ``SystemError`` (ESRCH once it has ended).
    /// The corresponding C function is `pidfd_send_signal`.
    public func send(_ signal: Int32) throws(SystemError) {
        try systemCall(.pidfdSendSignal, "process \(pid)") { csystem_pidfd_send_signal(descriptor.rawValue, signal) }
    }

    deinit { descriptor.close() }
}
