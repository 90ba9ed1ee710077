import Foundation
import Synchronization
import VidrecMedia

/// The link between a ``MovieEncoder`` and one ``PacketOutput``: the output writes on
/// its own named thread, fed through its own bounded queue, so that a live stream whose
/// network stalls never holds back the file, and a file whose disk stalls never holds
/// back the live stream (within the file's backlog). The policy when full is
/// ``PacketPolicy``'s.
///
/// Once the output throws, it is sent nothing more, except the closing
/// ``PacketOutput/finish()`` that keeps what it wrote.
///
/// The thread, the queue, the failure and the counts (``Counts``) are an
/// ``OutputWorker``'s, under its lock; the output itself is touched only by its thread
/// between ``start()`` and ``waitUntilFinished()``. That is why the class is
/// `@unchecked Sendable`.
public final class PacketConnection: @unchecked Sendable {
    /// The output's name, for messages.
    public let outputName: String
    /// What the queue holds and what a failure means.
    public let policy: PacketPolicy

    /// What the queue holds and what it dropped, kept under the worker's lock.
    private struct Counts {
        var videoSeconds = 0.0
        var audioSeconds = 0.0
        var waitingBytes = 0
        var skippingToKeyframe = false
        var videoDrops: Int64 = 0

        /// Adds (`sign` 1) or takes away (-1) `packet` from what waits.
        mutating func account(_ packet: EncodedPacket, sign: Double) {
            switch packet.kind {
            case .video: videoSeconds += sign * packet.seconds
            case .audio: audioSeconds += sign * packet.seconds
            case .subtitle: break
            }
            waitingBytes += Int(sign) * packet.size
        }

        /// Whether `packet` would take the queue past `policy`'s backlog.
        func isFull(for packet: EncodedPacket, _ policy: PacketPolicy) -> Bool {
            switch packet.kind {
            // A packet larger than the whole backlog still goes through an empty queue.
            case .video: videoSeconds >= policy.backlogSeconds || waitingBytes > 0 && waitingBytes + packet.size > policy.backlogBytes
            // The clock track's cues (one a second) wait with the sound.
            case .audio, .subtitle: audioSeconds >= policy.audioBacklogSeconds
            }
        }
    }

    private let output: any PacketOutput
    private let worker: OutputWorker<EncodedPacket, Counts>
    private let bytes = Atomic<Int64>(0)
    private let videoEnd = Atomic<Int64>(0)

    /// Connects `output` under `policy`; its thread will be called `threadName` (at most
    /// 15 bytes show).
    public init(output: any PacketOutput, policy: PacketPolicy, threadName: String) {
        self.output = output
        outputName = output.outputName
        self.policy = policy
        worker = OutputWorker(threadName: threadName, counts: Counts())
        bytes.store(output.bytesWritten, ordering: .relaxed)
    }

    /// Starts the output's thread. Call once.
    public func start() {
        worker.start(taken: { packet, counts in
            if let packet {
                counts.account(packet, sign: -1)
            } else {
                (counts.videoSeconds, counts.audioSeconds, counts.waitingBytes) = (0, 0, 0)
            }
        }, write: { [self] packet in
            defer { bytes.store(output.bytesWritten, ordering: .relaxed) }
            try output.write(packet)
            if packet.kind == .video {
                let end = packet.presentationTime + 1
                if end > videoEnd.load(ordering: .relaxed) { videoEnd.store(end, ordering: .relaxed) }
            }
        }, close: { [self] in
            defer { bytes.store(output.bytesWritten, ordering: .relaxed) }
            output.queueDropped(videoPackets: droppedVideoPackets)
            try output.finish()
        })
    }

    /// Offers `packet` under the policy: an essential output waits for room; another
    /// drops video until the next keyframe, and fails when too far behind on audio.
    public func send(_ packet: EncodedPacket) {
        worker.withLock { queue in
            guard queue.isTaking else { return }
            if policy.isEssential {
                while queue.counts.isFull(for: packet, policy), queue.failure == nil { queue.wait() }
                guard queue.failure == nil else { return }
            } else if packet.kind == .video {
                if queue.counts.skippingToKeyframe && !packet.isKeyframe || queue.counts.isFull(for: packet, policy) {
                    queue.counts.skippingToKeyframe = true
                    queue.counts.videoDrops += 1
                    return
                }
                queue.counts.skippingToKeyframe = false
            } else if queue.counts.isFull(for: packet, policy) {
                queue.fail(OutputError.fellBehind(outputName, seconds: Int(policy.audioBacklogSeconds)))
                return
            }
            queue.append(packet)
            queue.counts.account(packet, sign: 1)
        }
    }

    /// Ends the input: the output finishes on its own thread once it has written
    /// everything waiting. Returns at once.
    public func finish() {
        output.inputEnded()
        worker.finish()
    }

    /// Ends the input if that has not been done, and waits until the output has finished.
    ///
    /// - Returns: the output's first error, if it failed at any point (also in `finish()`).
    @discardableResult
    public func waitUntilFinished() -> (any Error)? { worker.waitUntilFinished() }

    /// The output's first error (or ``OutputError/fellBehind(_:seconds:)``), if it failed.
    public var failure: (any Error)? { worker.failure }

    /// Video packets dropped because the queue was full or a keyframe was awaited.
    public var droppedVideoPackets: Int64 { worker.withLock { $0.counts.videoDrops } }

    /// Bytes the output has written so far.
    public var bytesWritten: Int64 { bytes.load(ordering: .relaxed) }

    /// Where the video the output has written ends, in the encoder's time base: the slot
    /// after the latest frame written (frame slots, for a ``MovieEncoder``).
    public var writtenVideoEnd: Int64 { videoEnd.load(ordering: .relaxed) }
}
