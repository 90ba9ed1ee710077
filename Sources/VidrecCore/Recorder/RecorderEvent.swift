import VidrecMedia

/// What the ``Recorder`` reports while it works, for the command line to render.
public enum RecorderEvent: Sendable {
    /// Recording has started: the ID, the preset's name and resolved description, the
    /// sources' names.
    case started(id: String, preset: String, settings: String, sources: [String], maxDuration: DurationLimit?)
    /// About twice a second while recording.
    case progress(SessionProgress)
    /// The camera or the microphone went away, came back, or was given up on
    /// (`--reconnect`).
    case reconnection(ReconnectionEvent)
    /// Recording has ended; finalizing and saving follow.
    case ended
}
