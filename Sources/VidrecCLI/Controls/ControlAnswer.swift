import VidrecSystem

/// How a running recording answers one request of its control socket: the built-in
/// ones (``RecordingControls``, ``SwitchAnswer``) and those a feature brings with its
/// parts (the photo output's `snap`, the viewfinder's `viewfinder`).
struct ControlAnswer: Sendable {
    /// The request it answers.
    var name: ControlName
    /// The answer, on the control socket's thread.
    ///
    /// - Throws: an error with its exit code (``ExitCoded``), which the asker reports.
    var answer: @Sendable (ControlRequest, ControlledRecording) throws -> ControlReply

    /// The reply to a request this recording does not know, or one without what it
    /// needs (a `snap` without its path).
    static func unknown(_ command: String) -> ControlReply {
        ControlReply(error: "a request this vidrec does not know ('\(command)')", exitCode: ExitCode.usage.rawValue)
    }
}
