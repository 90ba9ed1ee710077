import Foundation
import VidrecCore
import VidrecMedia
import VidrecSystem

/// `vidrec trigger [ID]`: tell a recording that waits for triggers (`--pre`, `--post`)
/// that something happened, as SIGUSR1 does.
struct TriggerCommand: VidrecCommand {
    static let spec = CommandSpec(
        name: "trigger",
        abstract: "Tell a recording that waits for triggers that something happened.",
        discussion: """
        The recording (started with --pre and --post) writes what it kept from before \
        and records until --post seconds after the last trigger. Sending SIGUSR1 to it \
        does the same.
        """,
        arguments: [.positional("id", optional: true, help: "The recording; needed when several are running.")])

    var id: String?

    init(_ arguments: ParsedArguments) throws(ParserError) {
        id = arguments.positionals["id"]
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let target = try RunningRecording.find(id, in: context.store(), start: "vidrec start --pre 5 --post 10", usage: "vidrec trigger ID")
        _ = try RunningRecording.ask(ControlRequest(command: "trigger"), of: target)
        context.out("triggered \(target.id)\n")
        return .success
    }
}
