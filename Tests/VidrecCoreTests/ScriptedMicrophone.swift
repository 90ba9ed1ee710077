import VidrecMedia

/// A microphone that delivers `seconds` of 10 ms chunks of mono 48 kHz audio at once
/// when started, stamped from `start` on, as a real microphone would have captured them.
final class ScriptedMicrophone: AudioCaptureSource {
    let displayName = "scripted microphone"
    let audioFormat = AudioFormat(sampleFormat: .s16, sampleRate: 48000, channels: 1)
    let start: Int64
    let seconds: Int

    init(start: Int64, seconds: Int) {
        self.start = start
        self.seconds = seconds
    }

    func start(into queue: CaptureQueue) throws {
        let period = 480
        for chunk in 0..<(seconds * 100) {
            let time = start + Int64(chunk) * 10_000_000
            queue.push(.audio(.silence(format: audioFormat, frameCount: period, captureTime: time)))
        }
    }

    func stop() {}
}
