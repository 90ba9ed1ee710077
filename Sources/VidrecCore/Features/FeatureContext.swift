import Foundation
import VidrecMedia

/// What a ``RecordingFeature`` is told of the recording it is attached to, and the core
/// services it may use.
public struct FeatureContext: Sendable {
    /// The recording's ID in the pending area.
    public var id: String
    /// When the recording started: the date of the movie's time 0.
    public var startTime: Date
    /// The movie's frame rate: an output's frame index `n` is at `n / frameRate` seconds.
    public var frameRate: Rational
    /// The camera recorded at the start, by name, and its device path (`nil`: none).
    public var camera: String
    public var cameraPath: String?
    /// Whether the recording has a picture: `false` for a sound recording
    /// (``MovieSettings/isAudioOnly``), whose frames carry none. A feature that needs
    /// one throws ``RecorderError/needsPicture(_:)`` from its attach.
    public var hasPicture = true
    /// The recording process, for the sidecars of what a feature keeps.
    public var pid: Int32
    /// Keeps photos in the pending area and saves them to an album, as `vidrec snap` does.
    public var photos: PhotoSaver
    /// Starts an event, or extends it, for a recording that waits for triggers
    /// (`--pre`, `--post`). Returns whether the recording waits for triggers.
    public var trigger: @Sendable () -> Bool

    /// Creates a context; see the properties for the meaning of each argument.
    public init(id: String, startTime: Date, frameRate: Rational, camera: String, cameraPath: String?, pid: Int32,
                photos: PhotoSaver, trigger: @escaping @Sendable () -> Bool) {
        self.id = id
        self.startTime = startTime
        self.frameRate = frameRate
        self.camera = camera
        self.cameraPath = cameraPath
        self.pid = pid
        self.photos = photos
        self.trigger = trigger
    }

    /// The date of the frame in slot `frameIndex` of the movie.
    public func date(ofFrame frameIndex: Int64) -> Date {
        startTime.addingTimeInterval(Double(frameIndex) * Double(frameRate.denominator) / Double(frameRate.numerator))
    }
}
