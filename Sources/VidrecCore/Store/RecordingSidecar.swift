import Foundation
import VidrecMedia

/// The small JSON file kept beside each pending recording (`<id>.json`).
public struct RecordingSidecar: Codable, Sendable, Equatable {
    /// Where a recording stands.
    public enum State: String, Codable, Sendable {
        /// Being written now (its lock is held by the recording process).
        case recording
        /// Ended and finalized: ready to save.
        case finished
        /// The recording process died (crash, `kill -9`, power cut); the fragments
        /// written so far play, and `vidrec save` finalizes them.
        case interrupted
        /// Ended by a failure (a vanished camera, a full disk) and finalized.
        case failed
    }

    /// The recording's ID: its start time, `YYYYMMDD-HHMMSS`, plus `-N` if needed.
    public var id: String
    /// The preset's name and file.
    public var preset: String
    public var presetFile: String
    /// The camera and microphone, as displayed.
    public var camera: String
    /// The camera's device path (`nil` for the test camera), to refuse a second
    /// recording from the same camera with a clear message.
    public var cameraPath: String?
    public var microphone: String?
    /// The camera mode used (`640x480 YUYV 25 fps`), with the fit when the picture's
    /// aspect ratio differs from the preset's (`…, crop`); `nil` for the test camera.
    public var cameraMode: String?
    /// The movie's frame rate: the preset's, or the camera's when it is slower.
    public var frameRate: String?
    /// The container, which is also the file's extension.
    public var container: Container
    /// When recording started, ISO 8601.
    public var startTime: String
    /// The state as last written by the recording process.
    public var state: State
    /// The recording process.
    public var pid: Int32
    /// Duration in seconds, once ended.
    public var duration: Double?
    /// Video frames written.
    public var videoFrames: Int64?
    /// Frames dropped by the camera and by vidrec: empty slots in the movie.
    public var droppedFrames: Int64?
    /// Frames the camera itself reported skipping (V4L2 sequence numbers).
    public var cameraSkippedFrames: Int64?
    /// The camera's frames left out of the movie: undecodable, or (a copied H.264
    /// stream) after a lost frame up to the next keyframe.
    public var undecodableFrames: Int64?
    /// The camera's frames left out because it delivered more than the frame rate
    /// holds (no free slot for them).
    public var surplusFrames: Int64?
    /// The camera's frames left out while the recording was paused (`vidrec pause`).
    public var pausedFrames: Int64?
    /// Dropped slots at the very end filled with a repeat of the last frame.
    public var repeatedFrames: Int64?
    /// Seconds of silence inserted for microphone gaps.
    public var insertedSilence: Double?
    /// Seconds of silence appended at the end because the microphone had not delivered
    /// up to the video's end within its grace time.
    public var closingSilence: Double?
    /// Seconds the sound was moved by in its first seconds because its start was dated
    /// wrong (a sound server's first delay reports were off): later (positive, silence
    /// inserted) or earlier (negative, sound left out); absent when it was not moved.
    public var soundStartMoved: Double?
    /// Seconds of audio dropped: by the capture queue when it was full, or where the
    /// microphone's timestamps jumped back.
    public var droppedAudio: Double?
    /// Seconds of audio the drift correction added (positive) or removed (negative) by
    /// resampling, for a microphone whose clock runs slow or fast.
    public var driftCorrection: Double?
    /// Microphone overruns recovered.
    public var overruns: Int?
    /// The movie's time 0 on the machine's CLOCK_MONOTONIC, in seconds (the capture time
    /// of its first frame): a moment in the movie at time t happened at clockOrigin + t
    /// on that clock, for lining the movie up with logs or other recordings made on the
    /// same machine since it booted. Not given for a segment.
    public var clockOrigin: Double?
    /// Why it ended, in words.
    public var endReason: String?
    /// `--max`, in seconds, if one was given.
    public var maxDuration: Double?
    /// The name asked for with `--as` or `--name`, for the save step.
    public var saveName: String?
    /// Every camera recorded from, in order, with the media time from which it was used
    /// (more than one after `vidrec switch`).
    public var cameras: [CameraUse]?
    /// Slots after a camera switch that hold the old camera's last frame, until the new
    /// camera's first.
    public var switchFilledFrames: Int64?
    /// Slots that hold the last picture while the camera was gone (`--reconnect`), and
    /// how often it came back.
    public var cameraGapFrames: Int64?
    public var cameraReturns: Int?
    /// When the camera went and for how long, each time (``DeviceGap``).
    public var cameraGaps: [DeviceGap]?
    /// When the microphone went and for how long, each time (``DeviceGap``); silence
    /// stands for it in the movie.
    public var microphoneGaps: [DeviceGap]?
    /// For a segment of a continuous recording (`--segment`): its number, from 0.
    public var segment: Int?
    /// The recording's control socket (in ``VidrecPaths/runtimeDirectory``); for a
    /// later segment, the recording's, which is its first segment's. `nil` for a
    /// recording without one, or one made by an older vidrec (whose socket was
    /// `ID.sock` in the pending folder).
    public var controlSocket: String?
    /// Whether this sidecar was made again from the media file, the recording's own being
    /// damaged or missing (``endReason`` says why); `nil` otherwise.
    public var rebuilt: Bool?
    /// A still photo's size (`2560x1440`); `nil` for a movie.
    public var photoSize: String?

    /// Creates a sidecar for a recording that is starting now.
    public init(id: String, preset: String, presetFile: String, camera: String, microphone: String?,
                container: Container, startTime: Date, pid: Int32, maxDuration: Double?) {
        self.id = id
        self.preset = preset
        self.presetFile = presetFile
        self.camera = camera
        self.microphone = microphone
        self.container = container
        self.startTime = DateText.iso8601(startTime)
        self.state = .recording
        self.pid = pid
        self.maxDuration = maxDuration
    }
}
