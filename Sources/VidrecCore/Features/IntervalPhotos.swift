import Foundation
import Synchronization
import VidrecMedia

/// `--snap-every`: a still photo every so many seconds while the movie records, as an
/// `AVCapturePhotoOutput` beside an `AVCaptureMovieFileOutput` would take them for a
/// time-lapse. Each photo is the frame in the first slot at or after a multiple of the
/// interval (the first one once the camera's exposure has settled,
/// ``StillCapture/settleFrames`` in), kept as a pending photo of its own like
/// `vidrec snap`'s, dated by its place in the movie, and saved to the photo album when
/// the recording saves. Like a snap during a recording, a photo is the picture as the
/// camera sends it, at the camera mode's size.
///
/// Its output runs on its own thread behind a queue of two frames that drops: a slow
/// disk or encoder costs photos, never a frame of the movie. A photo that cannot be kept
/// is counted and said once; the recording goes on.
public final class IntervalPhotos: RecordingFeature, CaptureOutput {
    private struct State {
        var encoder: any PhotoEncoding
        var recording: FeatureContext?
        var nextSlot: Int64 = Int64(StillCapture.settleFrames)
        var kept: [String] = []
        var saved: [String] = []
        var failures = 0
        var firstFailure: String?
    }

    /// The interval, in seconds.
    public let seconds: Rational
    private let save: SaveRequest?
    private let onSaved: @Sendable (String) -> Void
    private let warn: @Sendable (String) -> Void
    private let state: Mutex<State>

    public let outputName = "photo every few seconds"
    public var bytesWritten: Int64 { 0 }

    /// Creates the feature.
    ///
    /// - Parameters:
    ///   - seconds: the interval, at least one frame.
    ///   - encoder: encodes the photos (and sees every frame it is given, for a camera's
    ///     own H.264).
    ///   - save: the photo album to save each photo to as it is taken (`nil`: they stay
    ///     pending).
    ///   - saved: hears of each photo saved, with its path (on the output's thread).
    ///   - warn: hears of the first photo that could not be kept.
    public init(every seconds: Rational, encoder: sending any PhotoEncoding, save: SaveRequest?,
                saved: @escaping @Sendable (String) -> Void = { _ in }, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.seconds = seconds
        self.save = save
        self.onSaved = saved
        self.warn = warn
        state = Mutex(State(encoder: encoder))
    }

    /// How many frames wait for the photos' thread; newer ones are dropped meanwhile, so
    /// a slow disk costs photos, never a frame of the movie.
    public static let queueFrames = 2

    public func attach(to recording: FeatureContext) throws -> [OutputConnection] {
        guard recording.hasPicture else { throw RecorderError.needsPicture("--snap-every") }
        state.withLock { $0.recording = recording }
        return [OutputConnection(output: self, policy: OutputPolicy(videoCapacity: IntervalPhotos.queueFrames, isEssential: false),
                                 threadName: "vidrec.interval")]
    }

    public func appendVideo(_ frame: VideoFrame, frameIndex: Int64) throws {
        let (saved, failure) = state.withLock { state -> (String?, String?) in
            state.encoder.observe(frame)
            guard let recording = state.recording, frameIndex >= state.nextSlot else { return (nil, nil) }
            let interval = max(1, (seconds * recording.frameRate).rounded)
            state.nextSlot = (frameIndex / interval + 1) * interval
            do {
                let photo = try state.encoder.jpeg(of: frame, width: nil)
                let entry = try recording.photos.keep(photo, at: recording.date(ofFrame: frameIndex), camera: recording.camera,
                                                      cameraPath: recording.cameraPath, pid: recording.pid,
                                                      how: "taken every \(seconds) s during recording \(recording.id)")
                state.kept.append(entry.id)
                guard let save else { return (nil, nil) }
                let path = try recording.photos.save(entry, to: save).saved
                state.saved.append(path)
                return (path, nil)
            } catch {
                state.failures += 1
                guard state.firstFailure == nil else { return (nil, nil) }
                state.firstFailure = "\(error)"
                return (nil, "a photo every \(seconds) s: one could not be kept (\(error)); the recording goes on")
            }
        }
        if let saved { onSaved(saved) }
        if let failure { warn(failure) }
    }

    public func appendAudio(_ chunk: AudioChunk) throws {}

    public func finish() throws {}

    public func recordingEnded(_ outcome: RecordingOutcome) -> [String] {
        state.withLock { state in
            let count = state.kept.count
            var lines: [String] = []
            if count > 0 {
                let photos = "\(count) photo\(count == 1 ? "" : "s") taken every \(seconds) s"
                if save == nil {
                    lines.append("\(photos), pending (\(state.kept.first!) to \(state.kept.last!)); keep them with 'vidrec save ID'")
                } else {
                    lines.append("\(photos), \(state.saved.count) saved")
                }
            }
            if state.failures > 0, let first = state.firstFailure {
                lines.append("\(state.failures) photo\(state.failures == 1 ? "" : "s") every \(seconds) s could not be kept: \(first)")
            }
            return lines
        }
    }
}
