#if DEBUG
import Synchronization

/// Failures that tests inject into the ``systemCall(_:_:_:)`` seam: call → errno. Only
/// in debug and test builds (`#if DEBUG`). Scoped to the calling task (and the ``NamedThread``s it starts), so tests
/// running side by side never see each other's faults, and empty outside tests.
public enum SyscallFaults {
    @TaskLocal static var switches: [FaultSwitch] = []

    /// Runs `body` with every call named in `faults` failing with its errno (the call is
    /// not made), for example `["renameat2": EINVAL, "linkat": EPERM]`.
    public static func injecting<T>(_ faults: [Syscall: Int32], _ body: () throws -> T) rethrows -> T {
        let on = FaultSwitch()
        on.turnOn(faults)
        return try injecting(through: on, body)
    }

    /// Runs `body` with the faults that `faultSwitch` holds at the time of each call, so
    /// that a test can make a disk fail part-way through a recording, also on the
    /// threads that were started before the fault was turned on.
    public static func injecting<T>(through faultSwitch: FaultSwitch, _ body: () throws -> T) rethrows -> T {
        try $switches.withValue(switches + [faultSwitch], operation: body)
    }

    /// The errno to fail `operation` with, if a test asked for it.
    static func fault(for operation: Syscall) -> Int32? {
        for faultSwitch in switches.reversed() {
            if let code = faultSwitch.fault(for: operation) { return code }
        }
        return nil
    }

    /// Runs `body` with `switches` in force: how a ``NamedThread`` passes on the faults
    /// of the test that started it.
    static func withSwitches(_ inherited: [FaultSwitch], _ body: () -> Void) {
        $switches.withValue(inherited, operation: body)
    }
}

/// Faults a test turns on and off while the code under test runs (``SyscallFaults``).
public final class FaultSwitch: Sendable {
    private struct State {
        var faults: [Syscall: Int32] = [:]
        /// Operations that fail once they have been called this many more times.
        var countdowns: [Syscall: (calls: Int, errno: Int32)] = [:]
    }
    private let state = Mutex(State())

    /// Creates a switch with no faults on.
    public init() {}

    /// From now on, every call named in `newFaults` fails with its errno.
    public func turnOn(_ newFaults: [Syscall: Int32]) {
        state.withLock { $0.faults.merge(newFaults) { $1 } }
    }

    /// Lets `operation` succeed `calls` more times, then fail with `errno` from then on:
    /// a crash or a failing disk at any chosen step.
    public func turnOn(_ operation: Syscall, after calls: Int, errno: Int32) {
        state.withLock { $0.countdowns[operation] = (calls, errno) }
    }

    func fault(for operation: Syscall) -> Int32? {
        state.withLock { state in
            if let code = state.faults[operation] { return code }
            guard let countdown = state.countdowns[operation] else { return nil }
            if countdown.calls > 0 {
                state.countdowns[operation] = (countdown.calls - 1, countdown.errno)
                return nil
            }
            return countdown.errno
        }
    }
}
#endif
