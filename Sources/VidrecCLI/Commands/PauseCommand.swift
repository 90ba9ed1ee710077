import VidrecCore
import VidrecMedia
import VidrecSystem

/// `vidrec pause [ID]`: pause a running recording until 'vidrec resume'.
struct PauseCommand: VidrecCommand {
    static let spec = CommandSpec(
        name: "pause",
        abstract: "Pause a running recording until 'vidrec resume'.",
        discussion: "Nothing is recorded while paused, and the movie has no gap: when it resumes, both streams go on from where they paused. --max counts only recorded time. The camera and microphone stay open, so resuming is at once. A recording that is stopped while paused is finished as usual. A camera's own H.264, stored as it is (--video copy), cannot be paused.",
        arguments: [.positional("id", optional: true, help: "The recording; needed when several are running.")])

    var id: String?

    init(_ arguments: ParsedArguments) throws(ParserError) {
        id = arguments.positionals["id"]
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let target = try RunningRecording.find(id, in: context.store(), start: "vidrec start", usage: "vidrec pause ID")
        let reply = try RunningRecording.ask(ControlRequest(command: "pause"), of: target)
        context.out(reply.changed == false ? "recording \(target.id) is already paused\n" : "paused \(target.id)\n")
        return .success
    }
}
