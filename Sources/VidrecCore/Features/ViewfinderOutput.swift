import Foundation
import Synchronization
import VidrecMedia

/// The viewfinder of a running recording, as `AVCaptureVideoPreviewLayer` shows a capture
/// session's picture: a small JPEG of the recorded frames, a few times a second,
/// published to a ``ViewfinderFeed`` that browsers watch.
///
/// Its output runs on its own thread (`vidrec.viewfinder`) behind a queue of two frames
/// that drops: encoding the preview never costs the movie a frame. A picture that cannot
/// be encoded is skipped; the recording goes on.
public final class ViewfinderOutput: RecordingFeature, CaptureOutput {
    private struct State {
        var encoder: any PhotoEncoding
        var frameRate: Rational?
        var nextSlot: Int64 = 0
        var published = 0
        var failures = 0
    }

    /// Where the pictures go.
    public let feed: ViewfinderFeed
    /// The pictures' width in pixels (the height keeps the aspect ratio).
    public let width: Int
    /// The most pictures a second.
    public let picturesPerSecond: Int
    private let state: Mutex<State>

    public let outputName = "viewfinder"
    public var bytesWritten: Int64 { 0 }

    /// Creates the output.
    ///
    /// - Parameters:
    ///   - feed: where the pictures go.
    ///   - encoder: encodes them (and sees every frame it is given, for a camera's own
    ///     H.264).
    ///   - width: their width (640 by default: small enough for a phone on Wi-Fi).
    ///   - picturesPerSecond: at most this many a second (5 by default).
    public init(feed: ViewfinderFeed, encoder: sending any PhotoEncoding, width: Int = 640, picturesPerSecond: Int = 5) {
        precondition(width > 0 && picturesPerSecond > 0)
        self.feed = feed
        self.width = width
        self.picturesPerSecond = picturesPerSecond
        state = Mutex(State(encoder: encoder))
    }

    public func attach(to recording: FeatureContext) throws -> [OutputConnection] {
        guard recording.hasPicture else { return [] }
        state.withLock { $0.frameRate = recording.frameRate }
        return [OutputConnection(output: self, policy: OutputPolicy(videoCapacity: 2, isEssential: false),
                                 threadName: "vidrec.viewfinder")]
    }

    /// Encodes the frame in the first slot at or after each of the recording's
    /// `1 / picturesPerSecond` marks, and publishes it.
    /// Nothing is encoded while nobody watches the feed (``ViewfinderFeed/isWatched``).
    public func appendVideo(_ frame: VideoFrame, frameIndex: Int64) throws {
        let watched = feed.isWatched
        let jpeg = state.withLock { state -> Data? in
            state.encoder.observe(frame)
            guard watched, let rate = state.frameRate, frameIndex >= state.nextSlot else { return nil }
            let interval = max(1, (rate * Rational(1, Int64(picturesPerSecond))).rounded)
            state.nextSlot = (frameIndex / interval + 1) * interval
            do {
                let photo = try state.encoder.jpeg(of: frame, width: min(width, frame.width))
                state.published += 1
                return Data(photo.bytes)
            } catch {
                state.failures += 1
                return nil
            }
        }
        if let jpeg { feed.publish(jpeg, capturedAt: frame.captureTime) }
    }

    /// The output as the only one of a session that records nothing (the idle
    /// viewfinder of `vidrec serve`): essential, so that the session runs, behind the
    /// same dropping queue of two frames.
    public func previewConnection(frameRate: Rational) -> OutputConnection {
        state.withLock { $0.frameRate = frameRate }
        return OutputConnection(output: self, policy: OutputPolicy(videoCapacity: 2, isEssential: true),
                                threadName: "vidrec.viewfinder")
    }

    public func appendAudio(_ chunk: AudioChunk) throws {}

    public func finish() throws {}

    public func recordingEnded(_ outcome: RecordingOutcome) -> [String] {
        let failures = state.withLock { $0.failures }
        return failures == 0 ? [] : ["viewfinder: \(failures) picture\(failures == 1 ? "" : "s") could not be encoded and were skipped"]
    }
}
