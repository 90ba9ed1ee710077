import Glibc
import Synchronization
import VidrecMedia
import VidrecSystem

/// Turns SIGINT, SIGTERM, SIGHUP and SIGUSR1 into calls, on a named thread that `sigwait`s.
///
/// The signals are blocked in every thread (threads started later inherit the mask)
/// and their disposition is reset to the default first: a script that starts vidrec
/// in the background has SIGINT set to *ignored*, and an ignored signal would be
/// discarded before `sigwait` could see it.
final class SignalWatcher: Sendable {
    static let watched: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGUSR1]

    /// Blocks the watched signals in the calling thread. Call before starting threads.
    static func blockSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in watched {
            Glibc.signal(signal, SIG_DFL)
            sigaddset(&set, signal)
        }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Starts watching; `handler` receives each signal number, in order.
    init(_ handler: @escaping @Sendable (Int32) -> Void) {
        _ = NamedThread(name: "vidrec.signals") {
            var set = sigset_t()
            sigemptyset(&set)
            for signal in SignalWatcher.watched { sigaddset(&set, signal) }
            while true {
                var received: Int32 = 0
                if sigwait(&set, &received) == 0 { handler(received) }
            }
        }
    }
}
