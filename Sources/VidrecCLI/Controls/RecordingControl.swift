import VidrecCore
import VidrecSystem

/// A request another vidrec makes of a running recording over its control socket,
/// together with the subcommand that makes it (`vidrec trigger`, `pause`, `resume`):
/// how the recording answers it and what the subcommand then says. One type is the
/// whole of such a command; it is registered in ``RecordingControls/all``, which gives
/// both the subcommand (``ControlCommand``) and the recording's answer.
///
/// Requests that carry more than the recording's ID (`snap`'s photo, `switch`'s camera)
/// have subcommands of their own.
protocol RecordingControl {
    /// The request, whose name is the subcommand's.
    static var request: ControlName { get }

    /// The subcommand's spec, named after ``request``.
    static var spec: CommandSpec { get }

    /// How to start a recording that answers the request, for the error when none runs
    /// (`vidrec start`).
    static var start: String { get }

    /// The recording's answer, on the control socket's thread.
    ///
    /// - Throws: an error with its exit code (``ExitCoded``), which the subcommand
    ///   reports and exits with.
    static func answer(_ request: ControlRequest, _ recording: ControlledRecording) throws -> ControlReply

    /// What the subcommand prints on standard output for the recording `id`'s reply.
    static func said(_ reply: ControlReply, id: String) -> String
}

extension RecordingControl {
    /// The subcommand that makes the request.
    static var command: any VidrecCommand.Type { ControlCommand<Self>.self }

    /// The recording's answer, for its control server.
    static var controlAnswer: ControlAnswer { ControlAnswer(name: request, answer: answer) }
}
