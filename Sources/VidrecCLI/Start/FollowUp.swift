import VidrecSystem

/// The part of a `vidrec start` feature that follows the files the command saves and
/// outlives the recording, as the upload queue (``RecordingUploads``) and the hooks
/// (``RecordingHooks``) do: it is told of every file saved to an album while the
/// recording runs (the movie, each segment or event, each photo) and of what happens to
/// the recording, and finishes its own work once the recording has ended.
protocol FollowUp: AnyObject, Sendable {
    /// A file was saved.
    func saved(_ file: SavedFile)

    /// Something else happened to the recording. Told on the thread it happened on:
    /// return at once.
    func happened(_ happening: RecordingHappening)

    /// Whether the recording is over and only this part's work goes on: a signal then
    /// goes to ``interrupt()`` instead of stopping the recording.
    var isFinishing: Bool { get }

    /// A signal (SIGINT, SIGTERM, SIGHUP) came while finishing: end the work soon, and
    /// leave what is not done where a later command finds it.
    ///
    /// - Returns: what to tell the user, one line without the `vidrec: ` prefix.
    func interrupt() -> String

    /// The recording has ended: finish the work.
    ///
    /// - Returns: a line saying what is left undone (the command then exits with
    ///   ``ExitCode/temporaryFailure`` where it would have succeeded), or `nil`.
    func finish() -> String?

    /// The recording failed or never started: stop at once.
    func abandon()
}

extension FollowUp {
    func happened(_ happening: RecordingHappening) {}
}
