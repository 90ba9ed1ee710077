/// Video, audio or timed text: the kind of a source, a stream or an encoder.
public enum MediaKind: String, Sendable {
    /// Pictures.
    case video
    /// Sound.
    case audio
    /// Timed text: the wall-clock track (`--clock-track`).
    case subtitle
}
