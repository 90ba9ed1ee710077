import Synchronization
import VidrecSystem

/// The named thread of a capture source and the flag that keeps it going.
///
/// A source's loop checks ``isRunning`` at least every 100 ms; ``stop()`` clears it,
/// fires ``wake`` (which a loop blocked in `poll` watches, to end at once) and joins the
/// thread.
public final class CaptureWorker: Sendable {
    private let running = Atomic<Bool>(false)
    private let thread = Mutex<NamedThread?>(nil)
    /// Fired by ``stop()``; nil when no eventfd could be made (the loop then notices the
    /// stop at its next wake-up).
    public let wake: WakeSignal?

    /// Creates a stopped worker.
    public init() {
        wake = try? WakeSignal()
    }

    /// Whether the loop should go on.
    public var isRunning: Bool { running.load(ordering: .relaxed) }

    /// Starts `body` on a thread called `name`.
    public func start(name: String, _ body: @escaping @Sendable () -> Void) {
        wake?.reset()
        running.store(true, ordering: .sequentiallyConsistent)
        let worker = NamedThread(name: name, body)
        thread.withLock { $0 = worker }
    }

    /// Starts a paced loop on a thread called `name`, for a source that makes its frames
    /// on a clock (the test camera, the ticks of a sound recording): `frame(n, due)` is
    /// called for n = 0, 1, 2, … at `due` = now + n / `frameRate` s on CLOCK_MONOTONIC,
    /// sleeping until then. The clock starts at this call, not when the thread first
    /// runs: like a device that is already capturing, a late thread catches up instead
    /// of starting late.
    public func startPaced(name: String, frameRate: Rational,
                           _ frame: @escaping @Sendable (_ sequence: UInt64, _ due: Int64) -> Void) {
        let origin = MonotonicClock.now()
        // Nanoseconds per frame as an exact rational: 1e9 × den / num.
        let period = Rational(1_000_000_000) * frameRate.reciprocal
        start(name: name) { [self] in
            var sequence: UInt64 = 0
            while isRunning {
                let due = origin + (Rational(Int64(sequence)) * period).rounded
                MonotonicClock.sleep(until: due)
                frame(sequence, due)
                sequence += 1
            }
        }
    }

    /// Asks the loop to end and waits for it. Safe to call more than once.
    ///
    /// - Returns: whether a thread was running.
    @discardableResult
    public func stop() -> Bool {
        running.store(false, ordering: .sequentiallyConsistent)
        wake?.fire()
        let worker = thread.withLock { current -> NamedThread? in defer { current = nil }; return current }
        worker?.join()
        return worker != nil
    }
}
