import VidrecMedia

/// A camera that delivers a fixed script of frames at once when started: tiny frames
/// whose capture times are `start + i / frameRate` for each `i` in `indexes`, then,
/// optionally, the end of the source with an error (a vanished camera).
///
/// Capture times, not arrival, decide where the session places a frame, so the script
/// replays minutes of capture in milliseconds and gives the same result on any machine.
final class ScriptedCamera: VideoCaptureSource {
    let displayName = "scripted camera"
    let videoFormat: VideoFormat
    let start: Int64
    let indexes: [Int64]
    let ending: (any Error)??

    /// - Parameter ending: `nil` to go on delivering nothing; `.some(error)` to end the
    ///   source after the script (`.some(nil)`: ended without an error).
    init(frameRate: Rational = Rational(30), start: Int64, indexes: [Int64], ending: (any Error)?? = nil) {
        videoFormat = VideoFormat(pixelFormat: .yuyv, width: 2, height: 2, frameRate: frameRate)
        self.start = start
        self.indexes = indexes
        self.ending = ending
    }

    /// The capture time of frame slot `index`.
    func time(of index: Int64) -> Int64 {
        start + (Rational(index) * videoFormat.frameRate.reciprocal * Rational(1_000_000_000)).rounded
    }

    func start(into queue: CaptureQueue) throws {
        for (sequence, index) in indexes.enumerated() {
            let buffer = FrameBuffer(count: 8)
            // The slot number in the first byte, so an output can tell frames apart.
            buffer.bytes.storeBytes(of: UInt8(truncatingIfNeeded: index), as: UInt8.self)
            queue.push(.video(VideoFrame(pixelFormat: .yuyv, width: 2, height: 2, buffer: buffer, byteCount: 8,
                                         strides: [4], captureTime: time(of: index), sequence: UInt64(sequence))))
        }
        if let ending { queue.push(.sourceEnded(.video, ending)) }
    }

    func stop() {}
}
