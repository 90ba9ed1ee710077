import VidrecCore
import VidrecMedia
import VidrecSystem

/// `vidrec resume [ID]`: resume a paused recording.
struct ResumeCommand: VidrecCommand {
    static let spec = CommandSpec(
        name: "resume",
        abstract: "Resume a paused recording.",
        discussion: "Both streams go on from where they paused: the first frame captured from now on follows the last one recorded.",
        arguments: [.positional("id", optional: true, help: "The recording; needed when several are running.")])

    var id: String?

    init(_ arguments: ParsedArguments) throws(ParserError) {
        id = arguments.positionals["id"]
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let target = try RunningRecording.find(id, in: context.store(), start: "vidrec start", usage: "vidrec resume ID")
        let reply = try RunningRecording.ask(ControlRequest(command: "resume"), of: target)
        context.out(reply.changed == false ? "recording \(target.id) is not paused\n" : "resumed \(target.id)\n")
        return .success
    }
}
