import Synchronization
import VidrecMedia

/// A microphone that delivers `seconds` of 10 ms chunks of mono 48 kHz audio at once,
/// stamped from `start` on, as a real microphone would have captured them.
///
/// The session starts the microphone before the camera; a real one has captured little
/// by the camera's first frame. So the script is delivered when the camera that follows
/// it (``ScriptedCamera/follow(_:)``) has delivered its first frame.
final class ScriptedMicrophone: AudioCaptureSource {
    let displayName = "scripted microphone"
    let audioFormat = AudioFormat(sampleFormat: .s16, sampleRate: 48000, channels: 1)
    let start: Int64
    let seconds: Int
    private let queue = Mutex<CaptureQueue?>(nil)

    init(start: Int64, seconds: Int) {
        self.start = start
        self.seconds = seconds
    }

    func start(into queue: CaptureQueue) throws {
        self.queue.withLock { $0 = queue }
    }

    /// Pushes the script into the queue the microphone was started with, once.
    func deliver() {
        guard let queue = queue.withLock({ queue in defer { queue = nil }; return queue }) else { return }
        let period = 480
        for chunk in 0..<(seconds * 100) {
            let time = start + Int64(chunk) * 10_000_000
            queue.push(.audio(.silence(format: audioFormat, frameCount: period, captureTime: time)))
        }
    }

    func stop() {}
}
