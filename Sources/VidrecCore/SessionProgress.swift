import VidrecMedia

/// A snapshot of a running recording, for the status line.
public struct SessionProgress: Sendable {
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
}
