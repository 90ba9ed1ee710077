/// What a movie (or picture) file says about itself in its header: enough to list it in
/// the album without decoding it.
public struct MovieDescription: Sendable, Equatable {
    /// How long it plays, in seconds (0 for a picture).
    public var duration: Double
    /// The picture's size, if it has one.
    public var width: Int?
    /// The picture's height, if it has one.
    public var height: Int?
    /// Frames per second, if the file states it.
    public var frameRate: Double?
    /// The codecs, video first (`h264`, `aac`).
    public var codecs: [String]
    /// The container's tags (`title`, `creation_time`, ``MovieMetadataKey``s).
    public var tags: [String: String]

    /// Creates a description; see the properties for the meaning of each argument.
    public init(duration: Double, width: Int?, height: Int?, frameRate: Double?, codecs: [String], tags: [String: String]) {
        self.duration = duration
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.codecs = codecs
        self.tags = tags
    }
}
