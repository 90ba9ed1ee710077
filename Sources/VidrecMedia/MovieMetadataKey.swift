/// The tags vidrec writes into its movies (MP4 and MOV as `mdta` keys in the movie's
/// `meta` box, Matroska as tags), so that ffprobe, players and `vidrec list` can tell
/// what made a file: reverse-DNS names, as Apple's `com.apple.quicktime.*` keys are.
public enum MovieMetadataKey {
    /// The quality preset's name (`medium`).
    public static let preset = "com.vidrec.preset"
    /// The camera's name (`vivid`, `test pattern`).
    public static let camera = "com.vidrec.camera"
    /// The microphone's name, when there was one.
    public static let microphone = "com.vidrec.microphone"
    /// libavformat's own: the start of the recording, ISO 8601 in UTC.
    public static let creationTime = "creation_time"
    /// libavformat's own: the name the recording is saved under.
    public static let title = "title"
}
