/// How much an ``OutputConnection`` holds for its output, and what its output's failure
/// means for the recording.
public struct OutputPolicy: Sendable, Equatable {
    /// Most video frames waiting for the output; a frame offered beyond this is dropped
    /// and counted.
    public var videoCapacity: Int
    /// Most audio, in seconds, waiting for the output. Audio is never dropped: an output
    /// this far behind has failed (``OutputError/fellBehind(_:seconds:)``).
    public var audioBacklogSeconds: Int
    /// How far behind, in seconds of the audio waiting for it, an output may fall before
    /// it is offered no more video until it catches up: a sixth of
    /// ``audioBacklogSeconds`` (10 s of the default minute). An encoder that works but
    /// cannot keep up (a starved machine, whose queue of a few seconds of frames is then
    /// a minute of work) records fewer frames, each counted, and the recording goes on;
    /// only an output that stops altogether reaches ``audioBacklogSeconds`` and fails.
    public var videoLagSeconds: Double { Double(audioBacklogSeconds) / 6 }
    /// Whether the recording ends when this output fails (the movie file), or goes on
    /// without it (a live stream beside the file).
    public var isEssential: Bool

    /// Creates a policy; see the properties for the meaning of each argument.
    public init(videoCapacity: Int, audioBacklogSeconds: Int = OutputPolicy.defaultAudioBacklogSeconds,
                isEssential: Bool = true) {
        precondition(videoCapacity > 0 && audioBacklogSeconds > 0)
        self.videoCapacity = videoCapacity
        self.audioBacklogSeconds = audioBacklogSeconds
        self.isEssential = isEssential
    }

    /// A minute of audio: far more than a working encoder ever lags, small in memory
    /// (11 MB of 48 kHz stereo 16-bit).
    public static let defaultAudioBacklogSeconds = 60
    /// The video backlog an output may build up, in seconds of frames: an encoder that
    /// starts slowly (x264 in its first second, behind the frames the camera sent while
    /// it opened) or a disk that stalls for a moment costs no frames. ffmpeg's v4l2 input
    /// keeps up to 32 driver buffers (2.6 s at 12.5 fps); with one second, vidrec
    /// dropped up to 10 frames at the start of 1280x720 at 12.5 fps in the test VM where
    /// ffmpeg dropped none.
    public static let videoBacklogSeconds = 3
    /// The most memory the waiting frames may take.
    public static let videoBacklogBytes = 96 << 20
    /// The fewest frames an output can hold, however large they are.
    public static let minimumVideoCapacity = 4

    /// The policy for an output of `format` frames: about ``videoBacklogSeconds`` of them,
    /// at most ``videoBacklogBytes``, at least ``minimumVideoCapacity``.
    public static func sized(for format: VideoFormat, isEssential: Bool = true) -> OutputPolicy {
        let capacity = max(minimumVideoCapacity, format.frameCount(seconds: videoBacklogSeconds, within: videoBacklogBytes))
        return OutputPolicy(videoCapacity: capacity, isEssential: isEssential)
    }
}
