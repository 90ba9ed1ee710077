import Glibc
import Synchronization
import VidrecMedia
import VidrecSystem

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
    let paced: Bool
    /// Thrown by `start(into:)`, as by a camera that cannot stream.
    let startError: (any Error)?
    /// Deliver each frame no sooner than its place in the script after the start, as a
    /// camera does (with `paced`).
    let realTime: Bool
    /// The microphone whose script follows this camera's first frame (``follow(_:)``).
    private let microphone = Mutex<ScriptedMicrophone?>(nil)
    private let worker = CaptureWorker()

    /// - Parameters:
    ///   - ending: `nil` to go on delivering nothing; `.some(error)` to end the source
    ///     after the script (`.some(nil)`: ended without an error).
    ///   - paced: deliver from a thread, each frame once the queue has room for it (for a
    ///     session whose capture queue is smaller than the script); otherwise all at
    ///     once, on the caller's thread.
    init(frameRate: Rational = Rational(30), start: Int64, indexes: [Int64], ending: (any Error)?? = nil,
         paced: Bool = false, realTime: Bool = false, startError: (any Error)? = nil) {
        self.startError = startError
        self.realTime = realTime
        videoFormat = VideoFormat(pixelFormat: .yuyv, width: 2, height: 2, frameRate: frameRate)
        self.start = start
        self.indexes = indexes
        self.ending = ending
        self.paced = paced
    }

    /// Has `microphone` deliver its script once this camera has delivered its first
    /// frame, as a microphone started just before a camera has captured little by then.
    func follow(_ microphone: ScriptedMicrophone) {
        self.microphone.withLock { $0 = microphone }
    }

    /// The capture time of frame slot `index`.
    func time(of index: Int64) -> Int64 {
        start + (Rational(index) * videoFormat.frameRate.reciprocal * Rational(1_000_000_000)).rounded
    }

    func start(into queue: CaptureQueue) throws {
        if let startError { throw startError }
        guard paced else { return deliver(into: queue, whileRunning: { true }) }
        worker.start(name: "scripted.camera") { [self] in
            let started = MonotonicClock.now()
            var next = indexes.makeIterator()
            deliver(into: queue) {
                if realTime, let index = next.next() {
                    let due = started + time(of: index) - time(of: indexes[0])
                    while worker.isRunning, MonotonicClock.now() < due { usleep(1_000) }
                }
                // Poll for room: the queue has no blocking push, by design.
                while worker.isRunning, queue.waitingVideoFrames >= queue.videoCapacity { usleep(500) }
                return worker.isRunning
            }
        }
    }

    private func deliver(into queue: CaptureQueue, whileRunning hasRoom: () -> Bool) {
        for (sequence, index) in indexes.enumerated() {
            guard hasRoom() else { return }
            let buffer = FrameBuffer(count: 8)
            // The slot number in the first byte, so an output can tell frames apart.
            buffer.bytes.storeBytes(of: UInt8(truncatingIfNeeded: index), as: UInt8.self)
            queue.push(.video(VideoFrame(pixelFormat: .yuyv, width: 2, height: 2, buffer: buffer, byteCount: 8,
                                         strides: [4], captureTime: time(of: index), sequence: UInt64(sequence))))
            if sequence == 0 { microphone.withLock { $0 }?.deliver() }
        }
        // A script without frames sets the microphone off at its end (delivering is once).
        microphone.withLock { $0 }?.deliver()
        if let ending { queue.push(.sourceEnded(.video, ending)) }
    }

    func stop() { worker.stop() }
}
