import Foundation
import Synchronization
import Testing
import VidrecFFmpeg
import VidrecMedia

/// `--trigger motion`'s detector, in process, with frames made here: a change that fills
/// part of the picture counts, by how much it changes; sensor-like noise and a frame that
/// does not decode do not.
@Suite struct MotionDetectorTests {
    static let width = 160, height = 120

    /// A YU12 frame whose luma is `level`, and `bright` over its left `share` of columns.
    static func frame(_ index: Int, level: UInt8, bright: UInt8? = nil, share: Double = 0.5) -> VideoFrame {
        let luma = width * height, chroma = luma / 4
        let buffer = FrameBuffer(count: luma + 2 * chroma)
        let bytes = buffer.bytes.assumingMemoryBound(to: UInt8.self)
        for y in 0..<height {
            for x in 0..<width {
                bytes[y * width + x] = bright != nil && Double(x) < Double(width) * share ? bright! : level
            }
        }
        (buffer.bytes + luma).initializeMemory(as: UInt8.self, repeating: 128, count: 2 * chroma)
        return VideoFrame(pixelFormat: .yu12, width: width, height: height, buffer: buffer, byteCount: buffer.count,
                          strides: [width, width / 2, width / 2], captureTime: 0, sequence: UInt64(index))
    }

    /// Runs `frames` through a detector with `threshold`; returns the motion of each
    /// frame that counted, by its index.
    static func detect(_ frames: [VideoFrame], threshold: Double = MotionDetector.defaultThreshold) throws -> [Int: Double] {
        FFmpegLog.configure(level: nil)
        let seen = Mutex<[Int: Double]>([:])
        let index = Mutex(0)
        let detector = MotionDetector(threshold: threshold) { motion in
            let current = index.withLock { $0 }
            seen.withLock { $0[current] = motion }
        }
        for (number, frame) in frames.enumerated() {
            index.withLock { $0 = number }
            try detector.appendVideo(frame, frameIndex: Int64(number))
        }
        return seen.withLock { $0 }
    }

    @Test func aChangeOverHalfThePictureCountsByHowMuchItChanges() throws {
        // Grey 100, then the left half at 200 from frame 5 on: a change of 100 over half
        // the picture, compared in full range (x 255/219), is a mean of 58.2 at frame 5,
        // and nothing after it.
        let frames = (0..<5).map { Self.frame($0, level: 100) } + (5..<8).map { Self.frame($0, level: 100, bright: 200) }
        let seen = try Self.detect(frames)
        #expect(Array(seen.keys) == [5], "\(seen)")
        #expect(abs((seen[5] ?? 0) - 100.0 * 255 / 219 / 2) < 1.5, "\(seen)")
    }

    @Test func noiseAndASmallChangeStayBelowTheThreshold() throws {
        // Levels 100 and 103 in turn (noise of 3.5 in full range), then a change of 150
        // over a tenth of the picture (a mean of about 17, counted with the default 6 but
        // not with 20).
        let frames = (0..<6).map { Self.frame($0, level: $0 % 2 == 0 ? 100 : 103) }
            + [Self.frame(6, level: 103, bright: 253, share: 0.1)]
        #expect(try Self.detect(frames).keys.sorted() == [6])
        #expect(try Self.detect(frames, threshold: 20).isEmpty)
    }

    @Test func aCompressedFrameThatDoesNotDecodeIsPassedOver() throws {
        let junk = FrameBuffer(count: 64)
        junk.bytes.initializeMemory(as: UInt8.self, repeating: 0x5A, count: 64)
        let broken = VideoFrame(pixelFormat: .mjpeg, width: Self.width, height: Self.height, buffer: junk, byteCount: 64,
                                strides: [0], captureTime: 0, sequence: 1)
        let frames = [Self.frame(0, level: 100), broken, Self.frame(2, level: 100, bright: 250)]
        #expect(try Self.detect(frames).keys.sorted() == [2], "the broken frame neither throws nor counts")
    }
}
