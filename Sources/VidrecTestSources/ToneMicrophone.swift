import Foundation
import VidrecMedia
import VidrecSystem

/// The built-in test microphone (`--mic test`): a 1 kHz sine at -6 dBFS in signed
/// 16-bit samples, delivered in 10 ms periods paced in real time on CLOCK_MONOTONIC
/// from a named thread, like an ALSA capture device.
public final class ToneMicrophone: AudioCaptureSource {
    public let displayName = "test tone (1 kHz)"
    public let audioFormat: AudioFormat
    /// The tone's frequency in hertz.
    public let frequency: Double

    private let worker = CaptureWorker()

    /// Creates a test microphone.
    public init(sampleRate: Int, channels: Int, frequency: Double = 1000) {
        audioFormat = AudioFormat(sampleFormat: .s16, sampleRate: sampleRate, channels: channels)
        self.frequency = frequency
    }

    public func start(into queue: CaptureQueue) throws {
        let format = audioFormat
        let frequency = frequency
        // The clock starts now, not when the thread first runs: like a device that is
        // already capturing, a late thread catches up instead of starting late.
        let start = MonotonicClock.now()
        worker.start(name: "vidrec.mic") { [worker] in
            let period = max(1, format.sampleRate / 100)
            var position: Int64 = 0
            let step = 2 * Double.pi * frequency / Double(format.sampleRate)
            while worker.isRunning {
                // A period is delivered when its last sample has been captured.
                let captured = start + format.nanoseconds(ofFrames: position)
                MonotonicClock.sleep(until: captured + format.nanoseconds(ofFrames: Int64(period)))
                let buffer = FrameBuffer(count: period * format.bytesPerFrame)
                let samples = buffer.bytes.assumingMemoryBound(to: Int16.self)
                for i in 0..<period {
                    let value = Int16(16383 * sin(step * Double(position + Int64(i))))
                    for channel in 0..<format.channels { samples[i * format.channels + channel] = value }
                }
                queue.push(.audio(AudioChunk(format: format, buffer: buffer, frameCount: period, captureTime: captured)))
                position += Int64(period)
            }
        }
    }

    public func stop() {
        worker.stop()
    }
}
