import CFFmpeg
import Foundation
import VidrecMedia
import VidrecSystem

/// Decodes a Motion JPEG camera's frames on threads of their own (`vidrec.decode`),
/// several at once, ahead of the encoder, and gives them back in the order they came.
///
/// Neither decoder decodes one JPEG on several threads (FFmpeg 5.1's `mjpeg` has no
/// frame or slice threads, libjpeg-turbo decodes on one), so the threads take whole
/// frames: each has its own ``FrameDecoder``, and a frame is decoded by whichever is
/// free. The encoder's thread then only passes the pictures on, and decoding no longer
/// adds to the time each frame takes there: a machine that decodes a 1080p JPEG in
/// 15 ms (a Raspberry Pi 4) keeps up at 30 fps with two threads.
///
/// At most ``depth`` frames are in the stage; ``next(waiting:)`` hands the oldest one
/// back once it is decoded, and waits for it when the stage is full, which is what
/// bounds it. Each frame is decoded into a picture of its own, and the encoder gives the
/// picture back (``recycle(_:)``) once it has passed it on: libjpeg-turbo then decodes a
/// later frame into the same buffers, which the encoder no longer references, rather
/// than into new ones for every frame.
///
/// The threads and the queue are guarded by one `NSCondition`; a ``Job``'s result is
/// written by a decode thread before it is marked done under the lock, and read by the
/// encoder's thread only after that. That is why the classes are `@unchecked Sendable`.
final class DecoderPool: @unchecked Sendable {
    /// One frame in the stage.
    final class Job: @unchecked Sendable {
        /// The camera's frame.
        let input: VideoFrame
        /// Its slot in the movie.
        let frameIndex: Int64
        /// The decoded picture, when ``isDecoded``; this job owns it.
        let picture: OwnedFrame
        /// Whether a decode thread has finished with the frame.
        fileprivate var isDone = false
        /// Whether the frame gave a picture (`false`: a corrupt JPEG, left out).
        fileprivate(set) var isDecoded = false

        fileprivate init(input: VideoFrame, frameIndex: Int64, picture: OwnedFrame) {
            self.input = input
            self.frameIndex = frameIndex
            self.picture = picture
        }
    }

    /// Most frames in the stage: one being decoded on each thread and one more, so that
    /// a thread that finishes finds the next frame waiting.
    let depth: Int
    private let condition = NSCondition()
    /// Frames no thread has taken yet, oldest first.
    private var waiting = FIFOQueue<Job>()
    /// Every frame in the stage, in the order it came (at most ``depth``).
    private var inOrder: [Job] = []
    /// Pictures given back, oldest first, for later frames.
    private var spare: [OwnedFrame] = []
    private var stopping = false
    private var threads: [NamedThread] = []

    /// How many frames more than it has threads the pool takes before the encoder's
    /// thread waits for one back.
    static let framesBeyondThreads = 1

    /// Starts `threads` decode threads.
    init(threads count: Int) {
        precondition(count > 0)
        depth = count + DecoderPool.framesBeyondThreads
        threads = (0..<count).map { index in
            NamedThread(name: "vidrec.decode\(count > 1 ? String(index) : "")") { [self] in decodeUntilStopped() }
        }
    }

    /// Decode threads for a machine with `processors` processors: none on one processor
    /// (the encoder's thread decodes, as it has no other core to hand the work to), else
    /// half of them, at most four.
    static func threads(processors: Int) -> Int {
        processors < 2 ? 0 : min(4, processors / 2)
    }

    deinit {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        for thread in threads { thread.join() }
    }

    /// Puts `input`, a JPEG for slot `frameIndex`, into the stage. Call ``next(waiting:)``
    /// until it returns `nil` after each call, so that the stage never holds more than
    /// ``depth`` frames.
    ///
    /// - Throws: ``FFmpegError`` when no frame can be allocated for the picture.
    func submit(_ input: VideoFrame, frameIndex: Int64) throws(FFmpegError) {
        condition.lock()
        defer { condition.unlock() }
        precondition(inOrder.count < depth, "take the decoded frames before submitting more")
        let picture = spare.isEmpty ? try OwnedFrame(subject: "\(input.pixelFormat.rawValue) frame \(input.sequence)") : spare.removeFirst()
        let job = Job(input: input, frameIndex: frameIndex, picture: picture)
        inOrder.append(job)
        waiting.append(job)
        condition.broadcast()
    }

    /// Takes back the picture of `job`, which ``next(waiting:)`` returned, once the
    /// encoder has passed it on.
    func recycle(_ job: Job) {
        condition.lock()
        defer { condition.unlock() }
        if spare.count < depth { spare.append(job.picture) }
    }

    /// The oldest frame in the stage once it is decoded, or `nil` when it is not decoded
    /// yet and the stage has room (or the stage is empty).
    ///
    /// - Parameter waiting: wait for the oldest frame even when the stage has room (to
    ///   empty the stage: before a frame that is not decoded here, and at the end).
    func next(waiting: Bool) -> Job? {
        condition.lock()
        defer { condition.unlock() }
        guard let oldest = inOrder.first else { return nil }
        if !oldest.isDone {
            guard waiting || inOrder.count >= depth else { return nil }
            while !oldest.isDone { condition.wait() }
        }
        inOrder.removeFirst()
        return oldest
    }

    /// A decode thread's loop: takes the oldest frame no thread has taken, decodes it
    /// with this thread's own decoder, and marks it done.
    private func decodeUntilStopped() {
        var decoder: FrameDecoder?
        while true {
            condition.lock()
            var next = waiting.removeFirst()
            while next == nil, !stopping {
                condition.wait()
                next = waiting.removeFirst()
            }
            condition.unlock()
            guard let job = next else { return }
            var decoded = false
            do {
                if decoder?.format != job.input.pixelFormat { decoder = try FrameDecoder(for: job.input.pixelFormat) }
                if let decoder { decoded = try decoder.decode(job.input, into: job.picture.pointer) }
            } catch {
                // A corrupt JPEG (cameras do send those): left out and counted by the encoder.
            }
            condition.lock()
            job.isDecoded = decoded
            job.isDone = true
            condition.broadcast()
            condition.unlock()
        }
    }
}
