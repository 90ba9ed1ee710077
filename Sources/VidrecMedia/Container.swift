/// The movie containers vidrec writes; a preset's `container` and the file's extension.
public enum Container: String, Sendable, Codable, CaseIterable {
    /// MPEG-4 (`.mp4`): H.264/H.265/AV1 with AAC/Opus; plays everywhere.
    case mp4
    /// QuickTime (`.mov`).
    case mov
    /// Matroska (`.mkv`): any codec.
    case mkv
    /// WebM (`.webm`): VP8/VP9/AV1 with Opus/Vorbis only.
    case webm

    /// The file name extension, without the dot.
    public var fileExtension: String { rawValue }

    /// Whether the file is written as fragments while recording and indexed at the end
    /// (MP4 and MOV); Matroska and WebM index themselves in their trailer.
    public var isFragmentedWhileRecording: Bool { self == .mp4 || self == .mov }
}
