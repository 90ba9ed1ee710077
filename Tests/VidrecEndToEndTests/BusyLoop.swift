import Foundation
import Glibc

/// A process that spins on one core until the test is done: the load of a busy laptop
/// or CI machine, made on purpose.
final class BusyLoop {
    private let process = Process()
    private var signaller: ChildSignal?

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "while :; do :; done"]
        try process.run()
        signaller = ChildSignal(process)
    }

    deinit {
        // SIGKILL: a process started from a test thread inherits that thread's signal
        // mask, in which SIGTERM is blocked.
        signaller?.send(SIGKILL)
        process.waitUntilExit()
    }
}
