import Foundation
import Testing
import VidrecFFmpeg
import VidrecMedia

/// Drift is corrected by resampling with libswresample: the audio comes out exactly as
/// much longer or shorter as the timeline asked, and the sound keeps its shape (no
/// sample is cut out or repeated, so there is no click anywhere).
@Suite struct DriftResamplerTests {
    static let format = AudioFormat(sampleFormat: .s16, sampleRate: 48000, channels: 1)

    /// A 1 kHz tone at -6 dBFS, `frames` long, continuing from sample `start`.
    static func tone(from start: Int, frames: Int) -> AudioChunk {
        let buffer = FrameBuffer(count: frames * 2)
        let samples = buffer.bytes.assumingMemoryBound(to: Int16.self)
        for i in 0..<frames { samples[i] = Int16(16383 * sin(2 * Double.pi * 1000 * Double(start + i) / 48000)) }
        return AudioChunk(format: format, buffer: buffer, frameCount: frames, captureTime: 0)
    }

    /// Runs 10 s of tone through a resampler in chunks of `sizes` (in turn), stretching
    /// each by `stretch`.
    static func resample(stretch: Int, sizes: [Int] = [480], pattern: [Int]? = nil) throws -> (samples: [Int16], expected: Int) {
        let resampler = try DriftResampler(format: format)
        var out: [Int16] = []
        func append(_ chunks: [AudioChunk]) {
            for chunk in chunks {
                let samples = chunk.buffer.bytes.assumingMemoryBound(to: Int16.self)
                out.append(contentsOf: UnsafeBufferPointer(start: samples, count: chunk.frameCount))
            }
        }
        var position = 0, k = 0, stretched = 0
        while position < 480_000 {
            let size = sizes[k % sizes.count]
            var chunk = tone(from: position, frames: size)
            chunk.stretch = pattern.map { $0[k % $0.count] } ?? stretch * size / 480
            stretched += chunk.stretch
            append(try resampler.stretch(chunk))
            position += size
            k += 1
        }
        append(try resampler.drain())
        return (out, position + stretched)
    }

    @Test(arguments: [(2, [480], nil), (-2, [480], nil), (0, [480], nil), (0, [1024, 7, 333, 2000, 1], nil),
                      (2, [960, 1440, 480], nil), (0, [480, 512, 441], [0, 2, 0, 0, -2, 1, -1, 2, 2, 0, -2, -2, 0])])
    func eachChunkComesOutStretchedByExactlyWhatWasAskedWithoutAClick(stretch: Int, sizes: [Int], pattern: [Int]?) throws {
        let (out, expected) = try Self.resample(stretch: stretch, sizes: sizes, pattern: pattern)
        #expect(abs(out.count - expected) <= 2, "\(out.count) samples, \(expected) expected")
        // A 1 kHz sine's second difference stays under A·(2π·1000/48000)² ≈ 280; a cut or
        // a repeated sample shows as a step in the first difference, thousands high.
        let steps = (2..<out.count).map { abs(Int(out[$0]) - 2 * Int(out[$0 - 1]) + Int(out[$0 - 2])) }
        // (The filter's edges, the first and last few samples, are left out.)
        let worst = steps.dropFirst(64).dropLast(64).max() ?? 0
        #expect(worst < 600, "a click: second difference \(worst)")
        // The level is kept.
        let body = out[4800..<(out.count - 4800)]
        let rms = (body.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(body.count)).squareRoot()
        #expect(abs(rms - 16383 / 2.0.squareRoot()) < 0.02 * 16383, "rms \(rms)")
    }
}
