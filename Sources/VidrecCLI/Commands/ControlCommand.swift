import VidrecCore
import VidrecSystem

/// The subcommand of a ``RecordingControl``: `vidrec NAME [ID]` finds the running
/// recording (the one called `ID`, or the only one running), asks it over its control
/// socket, and prints what the control says of the reply.
struct ControlCommand<Control: RecordingControl>: VidrecCommand {
    static var spec: CommandSpec { Control.spec }

    /// The recording named on the command line, if one is.
    var id: String?

    init(_ arguments: ParsedArguments) throws(ParserError) {
        id = arguments[RunningRecording.idArgument]
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let target = try RunningRecording.find(id, in: context.store(), start: Control.start, usage: "vidrec \(Control.request.rawValue) ID")
        let reply = try RunningRecording.ask(ControlRequest(Control.request), of: target)
        context.out(Control.said(reply, id: target.id) + "\n")
        return .success
    }
}
