/// What a capture source hands to the session.
public enum CaptureEvent: Sendable {
    /// A captured video frame.
    case video(VideoFrame)
    /// A captured run of audio frames.
    case audio(AudioChunk)
    /// The source stopped on its own: with an error (a vanished camera), or `nil`
    /// when it simply has no more media.
    case sourceEnded(MediaKind, (any Error)?)
}
