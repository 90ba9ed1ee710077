import VidrecMedia

/// The built-in test camera (`--camera test`): moving colour bars with the frame
/// number drawn in digits (top left) and as a 16-bit binary strip (bottom rows,
/// most significant bit first, white = 1), so every frame can be identified.
///
/// It delivers YUYV, the commonest webcam format, paced in real time on
/// CLOCK_MONOTONIC from a named thread, exactly like a V4L2 camera; the frames then
/// take the same path through the session and the movie output as a real camera's.
public final class TestPatternCamera: VideoCaptureSource {
    public let displayName = "test pattern"
    /// The size of a still photo at the test camera's "largest size" (`vidrec snap`).
    public static let largestSize = (width: 1920, height: 1080)
    public let videoFormat: VideoFormat

    private let worker = CaptureWorker()

    /// Creates a test camera of the given size (even width) and rate.
    public init(width: Int, height: Int, frameRate: Rational) {
        precondition(width >= 32 && width % 2 == 0 && height >= 32, "test pattern needs an even size of at least 32x32")
        videoFormat = VideoFormat(pixelFormat: .yuyv, width: width, height: height, frameRate: frameRate)
    }

    public func start(into queue: CaptureQueue) throws {
        let format = videoFormat
        let painter = TestPatternPainter(width: format.width, height: format.height)
        // The clock starts now, not when the thread first runs: like a device that is
        // already capturing, a late thread catches up instead of starting late.
        let start = MonotonicClock.now()
        worker.start(name: "vidrec.camera") { [worker] in
            // Nanoseconds per frame as an exact rational: 1e9 × den / num.
            let period = Rational(1_000_000_000) * format.frameRate.reciprocal
            var sequence: UInt64 = 0
            while worker.isRunning {
                let due = start + (Rational(Int64(sequence)) * period).rounded
                MonotonicClock.sleep(until: due)
                let buffer = painter.paint(frameNumber: sequence)
                queue.push(.video(VideoFrame(
                    pixelFormat: .yuyv, width: format.width, height: format.height, buffer: buffer,
                    byteCount: buffer.count, strides: [format.width * 2], captureTime: due, sequence: sequence)))
                sequence += 1
            }
        }
    }

    public func stop() {
        worker.stop()
    }
}
