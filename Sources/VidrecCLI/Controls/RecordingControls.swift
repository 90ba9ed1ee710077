/// The requests a running recording answers that plug in (``RecordingControl``), in
/// the order their subcommands are listed: the one place such a command is registered.
enum RecordingControls {
    static var all: [any RecordingControl.Type] { [TriggerControl.self, PauseResume.Pause.self, PauseResume.Resume.self] }

    /// Their subcommands.
    static var commands: [any VidrecCommand.Type] { all.map { $0.command } }

    /// The answers of the built-in requests: these, and `switch`.
    static var answers: [ControlAnswer] { all.map { $0.controlAnswer } + [SwitchAnswer.answer] }
}
