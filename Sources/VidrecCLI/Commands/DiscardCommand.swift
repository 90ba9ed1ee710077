import VidrecCore
import VidrecMedia
import VidrecSystem

/// `vidrec discard [ID]`: delete a pending recording.
struct DiscardCommand: VidrecCommand {
    static let spec = CommandSpec(
        name: "discard",
        abstract: "Delete a pending recording without saving it.",
        discussion: "Without an ID, deletes the newest recording that is not still being written.",
        arguments: [
            .positional("id", optional: true, help: "The recording to delete (see 'vidrec pending')."),
        ])

    var id: String?

    init(_ arguments: ParsedArguments) throws(ParserError) {
        id = arguments.positionals["id"]
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        let entry = try id.map { try store.entry(id: $0) } ?? store.newestSavable(command: "discard")
        try store.discard(entry)
        context.err("vidrec: discarded \(entry.id)\n")
        return .success
    }
}
