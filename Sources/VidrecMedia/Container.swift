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
    /// MPEG-4 audio (`.m4a`): AAC without video, a sound recording (``soundFile(for:)``);
    /// written and finished as MP4 is.
    case m4a
    /// Ogg Opus (`.opus`): Opus without video, a sound recording (``soundFile(for:)``).
    case opus

    /// The file name extension, without the dot.
    public var fileExtension: String { rawValue }

    /// Whether this is a movie container a preset may name (not a photo's, nor a sound
    /// file's, which a recording without video picks from its audio codec).
    public var isMovie: Bool { self != .jpeg && !isSoundFile }

    /// Whether this is a sound file's container (``m4a``, ``opus``).
    public var isSoundFile: Bool { self == .m4a || self == .opus }

    /// Whether the file is written as fragments while recording and indexed at the end
    /// (MP4, MOV and M4A); Matroska and WebM index themselves in their trailer, Ogg needs
    /// no index.
    public var isFragmentedWhileRecording: Bool { self == .mp4 || self == .mov || self == .m4a }

    /// The container of a recording without video whose preset asks for `self` and the
    /// audio codec `codec` (FFmpeg's encoder name): M4A for AAC in MP4 or MOV, Ogg Opus
    /// for Opus outside Matroska and WebM, else the preset's own container (Matroska and
    /// WebM hold sound alone as they are).
    public func soundFile(for codec: String) -> Container {
        switch self {
        case .mkv, .webm: return self
        default:
            let name = codec.lowercased()
            if name.contains("opus") { return .opus }
            return self == .mp4 || self == .mov ? .m4a : self
        }
    }
}
