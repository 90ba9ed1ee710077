import Glibc

/// What a stop signal asks for, given the ones before it.
///
/// SIGINT, SIGTERM and SIGHUP ask the recording to stop and finish its file; a second
/// SIGINT, sent deliberately while the file is being finished, aborts. Signals that
/// arrive within ``window`` of the first are the same request, not a second one:
/// GNU `timeout` (and a terminal, to a process group) sends one SIGINT to the child and
/// one to its whole group, so a single request arrives twice at once.
struct StopSignals {
    /// Signals this close to the first stop (nanoseconds) are part of it.
    static let window: Int64 = 500_000_000

    /// The answer to one signal.
    enum Action: Equatable {
        /// The first request: stop and finish the file.
        case stop
        /// A repeat of the first request (within the window), or a later SIGTERM or SIGHUP: nothing more to do.
        case repeated
        /// A later SIGINT: abort, keeping the recording so far as interrupted.
        case abort
    }

    private var firstStop: Int64?

    /// Takes `signal` (SIGINT, SIGTERM or SIGHUP) received at `time` on CLOCK_MONOTONIC.
    mutating func take(_ signal: Int32, at time: Int64) -> Action {
        guard let first = firstStop else {
            firstStop = time
            return .stop
        }
        return signal == SIGINT && time - first >= Self.window ? .abort : .repeated
    }
}
