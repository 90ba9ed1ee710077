import Synchronization
import VidrecMedia
import VidrecSystem

/// A microphone that delivers `seconds` of 10 ms chunks of mono 48 kHz audio at once,
/// stamped from `start` on, as a real microphone would have captured them.
///
/// The session starts the microphone before the camera; a real one has captured little
/// by the camera's first frame. So the script is delivered when the camera that follows
/// it (``ScriptedCamera/follow(_:)``) has delivered its first frame.
final class ScriptedMicrophone: AudioCaptureSource {
    let displayName = "scripted microphone"
    let audioFormat = AudioFormat(sampleFormat: .s16, sampleRate: 48000, channels: 1)
    /// When the first chunk was captured; `nil`: when the microphone is started, on the
    /// real clock.
    let start: Int64?
    let seconds: Int
    /// Pushed as the microphone's end after its script (an unplugged microphone).
    let ending: (any Error)?
    private let queue = Mutex<CaptureQueue?>(nil)
    private let startedAt = Mutex<Int64>(0)

    init(start: Int64, seconds: Int) {
        self.start = start
        self.seconds = seconds
        ending = nil
    }

    /// A microphone that delivers its script as soon as it is started, stamped from
    /// then on CLOCK_MONOTONIC: for a camera that runs on the real clock, such as the
    /// ticks of a sound recording (`NoCamera`), which no scripted camera sets off.
    init(startingNow seconds: Int, ending: (any Error)? = nil) {
        start = nil
        self.seconds = seconds
        self.ending = ending
    }

    func start(into queue: CaptureQueue) throws {
        self.queue.withLock { $0 = queue }
        if start == nil {
            startedAt.withLock { $0 = MonotonicClock.now() }
            deliver()
        }
    }

    /// Pushes the script into the queue the microphone was started with, once.
    func deliver() {
        guard let queue = queue.withLock({ queue in defer { queue = nil }; return queue }) else { return }
        let period = 480
        let first = start ?? startedAt.withLock { $0 }
        for chunk in 0..<(seconds * 100) {
            let time = first + Int64(chunk) * 10_000_000
            queue.push(.audio(.silence(format: audioFormat, frameCount: period, captureTime: time)))
        }
        if let ending { queue.push(.sourceEnded(.audio, ending)) }
    }

    func stop() {}
}
