/// The requests a running recording answers that plug in (``RecordingControl``), in
/// the order their subcommands are listed: the one place such a command is registered.
enum RecordingControls {
    static var all: [any RecordingControl.Type] { [TriggerControl.self, PauseResume.Pause.self, PauseResume.Resume.self] }

    /// Their subcommands.
    static var commands: [any VidrecCommand.Type] { all.map { $0.command } }

    /// The control that answers `command`, if one does.
    static func named(_ command: String) -> (any RecordingControl.Type)? {
        all.first { $0.spec.name == command }
    }
}
