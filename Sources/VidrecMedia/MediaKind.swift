/// Which kind of source an event came from.
public enum MediaKind: String, Sendable {
    case video
    case audio
}
