/// How much a ``PacketConnection`` holds for its output, and what happens when it is full.
///
/// - An essential output (the movie file) makes the encoder wait for room: its file
///   stays whole, and the capture queue ahead of the encoder drops camera frames instead
///   (counted there). Its backlog is large, so that a disk that stalls for seconds does
///   not hold back the other outputs.
/// - Any other output (a live stream) drops video from the packet that found it full
///   until the next keyframe, so that what it does send decodes; drops are counted.
///   Audio is never dropped: an output this far behind on audio has failed, and the
///   recording goes on without it.
public struct PacketPolicy: Sendable, Equatable {
    /// Most video, in seconds, waiting for the output.
    public var backlogSeconds: Double
    /// Most bytes waiting for the output.
    public var backlogBytes: Int
    /// Most audio, in seconds, waiting for the output.
    public var audioBacklogSeconds: Double
    /// Whether the recording ends when this output fails.
    public var isEssential: Bool

    /// Creates a policy; see the properties for the meaning of each argument.
    public init(backlogSeconds: Double, backlogBytes: Int, audioBacklogSeconds: Double = 60, isEssential: Bool) {
        precondition(backlogSeconds > 0 && backlogBytes > 0 && audioBacklogSeconds > 0)
        self.backlogSeconds = backlogSeconds
        self.backlogBytes = backlogBytes
        self.audioBacklogSeconds = audioBacklogSeconds
        self.isEssential = isEssential
    }

    /// The movie file: essential, with ten seconds (at most 64 MB) of packets to ride
    /// out a stalling disk.
    public static let movieFile = PacketPolicy(backlogSeconds: 10, backlogBytes: 64 << 20, isEssential: true)

    /// An output beside the file (a live stream): two seconds (at most 16 MB), then
    /// video is dropped until the next keyframe.
    public static let sideOutput = PacketPolicy(backlogSeconds: 2, backlogBytes: 16 << 20, isEssential: false)
}
