/// Video or audio: the kind of a source, a stream or an encoder.
public enum MediaKind: String, Sendable {
    /// Pictures.
    case video
    /// Sound.
    case audio
}
