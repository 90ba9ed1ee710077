import CFFmpeg
import Synchronization
import VidrecMedia
import VidrecSystem

/// A time limit for libavformat's blocking network calls, through its interrupt callback
/// (`AVIOInterruptCB`): while armed, a connect, write or close that is still waiting on
/// the server when the limit passes returns `AVERROR_EXIT`. A server that stops reading
/// (a hung process, a pulled cable) then costs the live stream a reconnect, never a
/// thread stuck in `send` for the kernel's TCP timeout of many minutes.
///
/// Sendable: the deadline is an atomic, read by the callback on whatever thread
/// libavformat calls it from.
final class InterruptDeadline: Sendable {
    private let deadline = Atomic<Int64>(.max)
    private let expired = Atomic<Bool>(false)

    /// Gives the next operations `seconds` from now.
    func arm(seconds: Double) {
        expired.store(false, ordering: .relaxed)
        deadline.store(MonotonicClock.now() + Int64(seconds * 1e9), ordering: .relaxed)
    }

    /// Makes every waiting or later operation give up at once, until the next ``arm(seconds:)``;
    /// ``hasExpired`` keeps saying whether the last armed limit passed.
    func expire() { deadline.store(0, ordering: .relaxed) }

    /// Whether the last armed limit passed while an operation waited.
    var hasExpired: Bool { expired.load(ordering: .relaxed) }

    /// The callback to give libavformat (the muxer's `interrupt_callback`, and
    /// `avio_open2`'s). Valid while this object lives: its owner keeps it as long as the
    /// contexts that hold the callback.
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(callback: { opaque in
            guard let opaque else { return 0 }
            let limit = Unmanaged<InterruptDeadline>.fromOpaque(opaque).takeUnretainedValue()
            guard MonotonicClock.now() >= limit.deadline.load(ordering: .relaxed) else { return 0 }
            limit.expired.store(true, ordering: .relaxed)
            return 1
        }, opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}
