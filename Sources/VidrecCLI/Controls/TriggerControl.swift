import VidrecSystem

/// `vidrec trigger [ID]`: tell a recording that waits for triggers (`--pre`, `--post`)
/// that something happened, as SIGUSR1 does.
enum TriggerControl: RecordingControl {
    static let request = ControlName.trigger

    static let spec = CommandSpec(
        name: request.rawValue,
        abstract: "Tell a recording that waits for triggers that something happened.",
        discussion: """
        The recording (started with --pre and --post) writes what it kept from before \
        and records until --post seconds after the last trigger. Sending SIGUSR1 to it \
        does the same.
        """,
        arguments: [RunningRecording.idArgument.spec])

    static let start = "vidrec start --pre 5 --post 10"

    static func answer(_ request: ControlRequest, _ recording: ControlledRecording) throws -> ControlReply {
        guard recording.recorder.trigger() else {
            return ControlReply(error: "this recording does not wait for triggers; start one with --pre and --post",
                                exitCode: ExitCode.usage.rawValue)
        }
        recording.warn("vidrec: triggered\n")
        return ControlReply()
    }

    static func said(_ reply: ControlReply, id: String) -> String { "triggered \(id)" }
}
