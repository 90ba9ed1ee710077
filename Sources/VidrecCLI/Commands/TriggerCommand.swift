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
        let reply: ControlReply
        do {
            reply = try ControlClient.send(ControlRequest(command: "trigger"), to: target.controlPath, timeout: 10)
        } catch {
            throw CLIError("recording \(target.id) (pid \(target.sidecar.pid)) did not answer (\(error))", .temporaryFailure)
        }
        if let error = reply.error {
            throw CLIError("recording \(target.id): \(error)", reply.exitCode.flatMap(ExitCode.init(rawValue:)) ?? .failure)
        }
        context.out("triggered \(target.id)\n")
        return .success
    }
}
