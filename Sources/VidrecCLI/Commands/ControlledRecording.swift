import VidrecCore

/// What a ``RecordingControl``'s answer may use of the running recording.
struct ControlledRecording: Sendable {
    /// The recording.
    var recorder: Recorder
    /// Tells the recording's user something, a whole line (prefix and newline).
    var warn: @Sendable (String) -> Void
}
