import Foundation

/// The bounded queue between the capture threads and the encoding thread.
///
/// Policy when full, chosen so that a slow encoder never stalls a device and never
/// costs audio:
/// - video: the incoming frame is dropped and counted (``droppedVideoFrames``);
/// - audio: room for ``audioCapacity`` chunks (tens of seconds); past that the chunk
///   is dropped and counted (``droppedAudioChunks``), which the session reports;
/// - `sourceEnded` events are always accepted.
///
/// Producers never block. State is guarded by one `NSCondition`; that is why the
/// class is `@unchecked Sendable`.
public final class CaptureQueue: @unchecked Sendable {
    /// Most video frames held at once.
    public let videoCapacity: Int
    /// Most audio chunks held at once.
    public let audioCapacity: Int

    private let condition = NSCondition()
    private var events = FIFOQueue<CaptureEvent>()
    private var videoCount = 0
    private var audioCount = 0
    private var videoDrops = 0
    private var audioDrops = 0
    private var audioFramesDropped: Int64 = 0

    /// Creates a queue with the given bounds.
    public init(videoCapacity: Int = 8, audioCapacity: Int = 4096) {
        precondition(videoCapacity > 0 && audioCapacity > 0)
        self.videoCapacity = videoCapacity
        self.audioCapacity = audioCapacity
    }

    /// Adds an event without blocking.
    ///
    /// - Returns: `false` when the event was dropped because its kind is at capacity.
    @discardableResult
    public func push(_ event: CaptureEvent) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        switch event {
        case .video:
            guard videoCount < videoCapacity else { videoDrops += 1; return false }
            videoCount += 1
        case .audio(let chunk):
            guard audioCount < audioCapacity else {
                audioDrops += 1
                audioFramesDropped += Int64(chunk.frameCount)
                return false
            }
            audioCount += 1
        case .sourceEnded:
            break
        }
        events.append(event)
        condition.signal()
        return true
    }

    /// Takes the oldest event, waiting up to `timeout` seconds for one.
    ///
    /// - Returns: `nil` when nothing arrived in time.
    public func pop(timeout: Double) -> CaptureEvent? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while events.isEmpty {
            if !condition.wait(until: deadline) { return nil }
        }
        let event = events.removeFirst()!
        switch event {
        case .video: videoCount -= 1
        case .audio: audioCount -= 1
        case .sourceEnded: break
        }
        return event
    }

    /// The most memory the frames waiting in a sized queue may take.
    public static let videoBytes = 64 << 20
    /// How many seconds of frames a sized queue holds (at most ``videoBytes``).
    public static let videoSeconds = 1

    /// A queue for frames of `format`: a second of them, at most ``videoBytes``, at least
    /// 8. The camera starts before the encoder has opened (which takes a few hundred
    /// milliseconds on a slow machine), and its first frames wait here meanwhile.
    public static func sized(for format: VideoFormat) -> CaptureQueue {
        CaptureQueue(videoCapacity: max(8, format.frameCount(seconds: videoSeconds, within: videoBytes)))
    }

    /// Video frames waiting to be taken.
    public var waitingVideoFrames: Int { condition.lock(); defer { condition.unlock() }; return videoCount }

    /// Video frames dropped because the queue was full.
    public var droppedVideoFrames: Int { condition.lock(); defer { condition.unlock() }; return videoDrops }

    /// Audio frames (samples per channel) in the chunks dropped because the queue was full.
    public var droppedAudioFrames: Int64 { condition.lock(); defer { condition.unlock() }; return audioFramesDropped }

    /// Audio chunks dropped because the queue was full.
    public var droppedAudioChunks: Int { condition.lock(); defer { condition.unlock() }; return audioDrops }
}
