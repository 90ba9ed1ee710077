/// How a movie file is encoded: what a quality preset resolves to.
public struct MovieSettings: Sendable, Equatable {
    /// The container.
    public var container: Container
    /// The video stream's encoding; for a sound recording (``isAudioOnly``), only its
    /// frame rate counts: the grid the recording's time is counted on.
    public var video: VideoEncoding
    /// The audio stream's encoding, or `nil` for a silent movie.
    public var audio: AudioEncoding?
    /// Tags written into the movie, for other tools and for `vidrec list`:
    /// ``MovieMetadataKey``s and libavformat's own (`title`, `creation_time`).
    public var metadata: [String: String] = [:]

    /// Creates settings.
    /// Whether the movie has a wall-clock track (`--clock-track`): a cue a second with
    /// the local time its picture was captured.
    public var hasClockTrack = false

    public init(container: Container, video: VideoEncoding, audio: AudioEncoding?) {
        self.container = container
        self.video = video
        self.audio = audio
    }

    /// Whether the recording is sound only: no video stream (``VideoEncoding/isRecorded``).
    public var isAudioOnly: Bool { !video.isRecorded }
}
