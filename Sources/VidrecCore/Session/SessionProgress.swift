import VidrecMedia

/// A snapshot of a running recording, for the status line and `vidrec status`.
public struct SessionProgress: Sendable, Codable, Equatable {
    /// Media time recorded so far, in seconds.
    public var elapsed: Double
    /// Video frames recorded so far: in the file or waiting for its encoder (frames
    /// dropped are not counted).
    public var videoFrames: Int64
    /// Frames per second recorded over the last interval.
    public var framesPerSecond: Double
    /// Bytes in the file.
    public var bytes: Int64
    /// Frames dropped so far (by the camera or by vidrec).
    public var droppedFrames: Int64
    /// Video frames captured and waiting for the movie's encoder: how far encoding has
    /// fallen behind (a stop encodes them before the file ends).
    public var encodingBacklogFrames: Int64
    /// The same backlog in seconds of video.
    public var encodingBacklog: Double
    /// Frames dropped so far because encoding fell behind (a full queue): the part of
    /// ``droppedFrames`` that a smaller preset or a less busy machine would have kept.
    public var encodingDroppedFrames: Int64
    /// Whether the recording is paused (``CaptureSession/pause()``).
    public var isPaused = false
    /// Whether the recording is sound only (``MovieSettings/isAudioOnly``): its frame
    /// counts and rate are only its time, and say nothing to the user.
    public var isAudioOnly = false
    /// How long the camera has been gone, in seconds, while the recording waits for it
    /// to come back (``CameraReconnection``) and holds its last picture; `nil` while it
    /// is there.
    public var cameraGone: Double?
    /// How long the microphone has been gone, in seconds, while the recording waits for
    /// it (``MicrophoneReconnection``) with silence; `nil` while it is there.
    public var microphoneGone: Double?

    /// Creates a snapshot; see the properties for the meaning of each argument.
    public init(elapsed: Double, videoFrames: Int64, framesPerSecond: Double, bytes: Int64, droppedFrames: Int64,
                encodingBacklogFrames: Int64 = 0, encodingBacklog: Double = 0, encodingDroppedFrames: Int64 = 0,
                isPaused: Bool = false) {
        self.isPaused = isPaused
        self.elapsed = elapsed
        self.videoFrames = videoFrames
        self.framesPerSecond = framesPerSecond
        self.bytes = bytes
        self.droppedFrames = droppedFrames
        self.encodingBacklogFrames = encodingBacklogFrames
        self.encodingBacklog = encodingBacklog
        self.encodingDroppedFrames = encodingDroppedFrames
    }

    private enum CodingKeys: String, CodingKey {
        case elapsed, videoFrames, framesPerSecond, bytes, droppedFrames, encodingBacklogFrames, encodingBacklog
        case encodingDroppedFrames, isPaused, isAudioOnly, cameraGone, microphoneGone
    }

    /// Reads a snapshot; one written by an older vidrec still recording lacks the newer
    /// counts, which read as 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        elapsed = try container.decode(Double.self, forKey: .elapsed)
        videoFrames = try container.decode(Int64.self, forKey: .videoFrames)
        framesPerSecond = try container.decode(Double.self, forKey: .framesPerSecond)
        bytes = try container.decode(Int64.self, forKey: .bytes)
        droppedFrames = try container.decode(Int64.self, forKey: .droppedFrames)
        encodingBacklogFrames = try container.decodeIfPresent(Int64.self, forKey: .encodingBacklogFrames) ?? 0
        encodingBacklog = try container.decodeIfPresent(Double.self, forKey: .encodingBacklog) ?? 0
        encodingDroppedFrames = try container.decodeIfPresent(Int64.self, forKey: .encodingDroppedFrames) ?? 0
        isPaused = try container.decodeIfPresent(Bool.self, forKey: .isPaused) ?? false
        isAudioOnly = try container.decodeIfPresent(Bool.self, forKey: .isAudioOnly) ?? false
        cameraGone = try container.decodeIfPresent(Double.self, forKey: .cameraGone)
        microphoneGone = try container.decodeIfPresent(Double.self, forKey: .microphoneGone)
    }
}
