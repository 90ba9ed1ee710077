import VidrecMedia

/// A snapshot of a running recording, for the status line and `vidrec status`.
public struct SessionProgress: Sendable, Codable, Equatable {
    /// Media time recorded so far, in seconds.
    public var elapsed: Double
    /// Video frames written.
    public var videoFrames: Int64
    /// Frames per second written over the last interval.
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

    /// Creates a snapshot; see the properties for the meaning of each argument.
    public init(elapsed: Double, videoFrames: Int64, framesPerSecond: Double, bytes: Int64, droppedFrames: Int64,
                encodingBacklogFrames: Int64 = 0, encodingBacklog: Double = 0) {
        self.elapsed = elapsed
        self.videoFrames = videoFrames
        self.framesPerSecond = framesPerSecond
        self.bytes = bytes
        self.droppedFrames = droppedFrames
        self.encodingBacklogFrames = encodingBacklogFrames
        self.encodingBacklog = encodingBacklog
    }
}
