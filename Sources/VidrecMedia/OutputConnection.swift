import Foundation
import Synchronization

/// The link between the capture session and one output, as `AVCaptureConnection` links
/// an `AVCaptureSession` to its outputs: the output runs on its own named thread, fed
/// through its own bounded queue, so that a slow output (x264 falling behind, an
/// `fsync` that stalls, a network stream) never stalls capture, audio or the other
/// outputs.
///
/// Policy when the queue is full (sizes in ``OutputPolicy``):
/// - video: the frame offered is dropped and counted (``droppedVideoFrames``); the movie
///   has an empty slot there, as when the camera skips one. While the audio waiting is
///   more than ``OutputPolicy/videoLagSeconds`` long (the output is that far behind),
///   the frames offered are dropped too, and so are the frames the output takes from
///   its queue (a few seconds of frames can be a minute of work on a starved machine),
///   until it catches up; not once the input has ended. When the newest frame offered
///   before ``finish()`` was dropped, it is delivered anyway at the end, so the movie
///   still lasts until its last slot.
/// - audio: never dropped, as a gap would put the sound out of step. An output more than
///   `audioBacklogSeconds` behind has failed (``OutputError/fellBehind(_:seconds:)``).
///
/// Once the output throws, it is sent nothing more, except the closing ``CaptureOutput/finish()``
/// that keeps what it wrote. The session reads ``failure`` to end the recording (an
/// essential output) or to carry on without it.
///
/// The thread, the queue, the failure and the counts (``Counts``) are an
/// ``OutputWorker``'s, under its lock; the output itself is touched only by its thread
/// between ``start()`` and ``waitUntilFinished()``. That is why the class is
/// `@unchecked Sendable`.
public final class OutputConnection: @unchecked Sendable {
    /// The output's name, for messages.
    public let outputName: String
    /// What the queue holds and what a failure means.
    public let policy: OutputPolicy

    private enum Item {
        case video(VideoFrame, Int64)
        case audio(AudioChunk)
    }

    /// What the queue holds and what it dropped, kept under the worker's lock.
    private struct Counts {
        var videoWaiting = 0
        var audioWaiting: Int64 = 0
        /// The audio's sample rate, from its first chunk.
        var sampleRate = 0
        /// Whether the input has ended (``finish()``).
        var ended = false
        var videoDrops: Int64 = 0
        var newestDropped: (frame: VideoFrame, index: Int64)?

        /// Whether the output is more than `policy`'s ``OutputPolicy/videoLagSeconds``
        /// behind: that much audio waits for it.
        func isLagging(_ policy: OutputPolicy) -> Bool {
            sampleRate > 0 && Double(audioWaiting) > policy.videoLagSeconds * Double(sampleRate)
        }
    }

    private let output: any CaptureOutput
    private let worker: OutputWorker<Item, Counts>
    private let bytes = Atomic<Int64>(0)
    private let writtenEnd = Atomic<Int64>(0)

    /// Connects `output` under `policy`; its thread will be called `threadName` (at most
    /// 15 bytes show).
    public init(output: any CaptureOutput, policy: OutputPolicy, threadName: String = "vidrec.output") {
        self.output = output
        self.outputName = output.outputName
        self.policy = policy
        worker = OutputWorker(threadName: threadName, counts: Counts())
        bytes.store(output.bytesWritten, ordering: .relaxed)
    }

    /// Starts the output's thread. Call once.
    public func start() {
        // Set by `taken` and read by `write`, both on the output's thread.
        var skipping = false
        worker.start(taken: { [policy] item, counts in
            skipping = false
            switch item {
            case let .video(frame, index):
                counts.videoWaiting -= 1
                guard !counts.ended, counts.isLagging(policy) else { break }
                skipping = true
                counts.videoDrops += 1
                // The newest frame offered is delivered at the end after all (finish()).
                if counts.videoWaiting == 0, (counts.newestDropped?.index ?? .min) < index {
                    counts.newestDropped = (frame, index)
                }
            case let .audio(chunk): counts.audioWaiting -= Int64(chunk.frameCount)
            case nil: (counts.videoWaiting, counts.audioWaiting) = (0, 0)
            }
        }, write: { [self] item in
            defer { bytes.store(output.bytesWritten, ordering: .relaxed) }
            switch item {
            case let .video(frame, index):
                guard !skipping else { return }
                try output.appendVideo(frame, frameIndex: index)
                writtenEnd.store(output.writtenVideoEnd ?? index + 1, ordering: .relaxed)
            case let .audio(chunk):
                try output.appendAudio(chunk)
            }
        }, close: { [self] in
            defer { bytes.store(output.bytesWritten, ordering: .relaxed) }
            try output.finish()
        })
    }

    /// Offers a video frame at `frameIndex` (strictly increasing).
    ///
    /// - Parameter waitForRoom: wait for room instead of dropping the frame (for the
    ///   closing frames, once capture has stopped).
    /// - Returns: `false` when the frame was dropped (a full queue, or a failed output).
    @discardableResult
    public func send(video frame: VideoFrame, frameIndex: Int64, waitForRoom: Bool = false) -> Bool {
        worker.withLock { queue in
            guard queue.isTaking else { return false }
            if queue.counts.videoWaiting >= policy.videoCapacity || queue.counts.isLagging(policy) && !waitForRoom {
                guard waitForRoom else {
                    queue.counts.videoDrops += 1
                    queue.counts.newestDropped = (frame, frameIndex)
                    return false
                }
                while queue.counts.videoWaiting >= policy.videoCapacity, queue.failure == nil { queue.wait() }
                guard queue.failure == nil else { return false }
            }
            queue.counts.newestDropped = nil
            queue.append(.video(frame, frameIndex))
            queue.counts.videoWaiting += 1
            return true
        }
    }

    /// Offers audio that directly follows the audio offered before.
    ///
    /// - Parameter waitForRoom: wait for room instead of failing an output that has
    ///   fallen too far behind (for the closing audio, once capture has stopped).
    public func send(audio chunk: AudioChunk, waitForRoom: Bool = false) {
        worker.withLock { queue in
            guard queue.isTaking else { return }
            queue.counts.sampleRate = chunk.format.sampleRate
            let limit = Int64(policy.audioBacklogSeconds) * Int64(chunk.format.sampleRate)
            if queue.counts.audioWaiting + Int64(chunk.frameCount) > limit {
                guard waitForRoom else {
                    queue.fail(OutputError.fellBehind(outputName, seconds: policy.audioBacklogSeconds))
                    return
                }
                while queue.counts.audioWaiting + Int64(chunk.frameCount) > limit, queue.counts.audioWaiting > 0,
                      queue.failure == nil {
                    queue.wait()
                }
                guard queue.failure == nil else { return }
            }
            queue.append(.audio(chunk))
            queue.counts.audioWaiting += Int64(chunk.frameCount)
        }
    }

    /// Ends the input: the output finishes (flushes its encoders, closes its file) on its
    /// own thread once it has written everything waiting. Returns at once.
    public func finish() {
        worker.withLock { queue in
            if let last = queue.counts.newestDropped, queue.isTaking {
                // The newest frame was dropped: deliver it after all, or the movie would
                // end before its last slot.
                queue.append(.video(last.frame, last.index))
                queue.counts.videoWaiting += 1
                queue.counts.videoDrops -= 1
            }
            queue.counts.newestDropped = nil
            queue.counts.ended = true
        }
        worker.finish()
    }

    /// Ends the input if that has not been done, and waits until the output has finished.
    ///
    /// - Returns: the output's first error, if it failed at any point (also in `finish()`).
    @discardableResult
    public func waitUntilFinished() -> (any Error)? {
        finish()
        return worker.waitUntilFinished()
    }

    /// The output's first error (or ``OutputError/fellBehind(_:seconds:)``), if it failed.
    public var failure: (any Error)? { worker.failure }

    /// Outputs behind this one that failed and were left behind (``CaptureOutput/lostOutputs``);
    /// read after ``waitUntilFinished()``.
    public var lostOutputs: [String] {
        precondition(worker.isStopped, "read lostOutputs after waitUntilFinished()")
        return output.lostOutputs
    }

    /// Frames the output left out (``CaptureOutput/leftOutFrames``); read after
    /// ``waitUntilFinished()``.
    public var leftOutFrames: Int64 {
        precondition(worker.isStopped, "read leftOutFrames after waitUntilFinished()")
        return output.leftOutFrames
    }

    /// Video frames dropped because the queue was full.
    public var droppedVideoFrames: Int64 { worker.withLock { $0.counts.videoDrops } }

    /// Video frames offered and waiting for the output to take them.
    public var waitingVideoFrames: Int { worker.withLock { $0.counts.videoWaiting } }

    /// Bytes the output has written so far.
    public var bytesWritten: Int64 { bytes.load(ordering: .relaxed) }

    /// Where the video the output has taken ends, in frames: the slot after the newest
    /// frame it was given. Frames offered but still waiting are not counted.
    public var writtenVideoEnd: Int64 { writtenEnd.load(ordering: .relaxed) }
}
