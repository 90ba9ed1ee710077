/// The file formats vidrec writes: a preset's movie `container`, or a still photo; and
/// the file's extension.
public enum Container: String, Sendable, Codable, CaseIterable {
    /// MPEG-4 (`.mp4`): H.264/H.265/AV1 with AAC/Opus; plays everywhere.
    case mp4
    /// QuickTime (`.mov`).
    case mov
    /// Matroska (`.mkv`): any codec.
    case mkv
    /// WebM (`.webm`): VP8/VP9/AV1 with Opus/Vorbis only.
    case webm
    /// A still photo (`.jpg`) from `vidrec snap`; never a preset's container.
    case jpeg = "jpg"

    /// The file name extension, without the dot.
    public var fileExtension: String { rawValue }

    /// Whether this is a movie container a preset may name (everything but ``jpeg``).
    public var isMovie: Bool { self != .jpeg }

    /// Whether the file is written as fragments while recording and indexed at the end
    /// (MP4 and MOV); Matroska and WebM index themselves in their trailer.
    public var isFragmentedWhileRecording: Bool { self == .mp4 || self == .mov }
}
