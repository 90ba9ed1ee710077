import VidrecCore
import VidrecMedia
import VidrecSystem

/// `vidrec discard [ID]`: delete a pending recording.
struct DiscardCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let id = ArgumentKey.positional("id", optional: true, help: "The recording to delete (see 'vidrec pending').")
    }

    static let spec = CommandSpec(
        name: "discard",
        abstract: "Delete a pending recording without saving it.",
        discussion: "Without an ID, deletes the newest recording that is not still being written.",
        arguments: [
            Key.id.spec,
        ])

    var id: String?

    init(_ arguments: ParsedArguments) throws(ParserError) {
        id = arguments[Key.id]
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        let entry = try id.map { try store.entry(id: $0) } ?? store.newestSavable(command: "discard")
        try store.discard(entry)
        context.err("vidrec: discarded \(entry.id)\n")
        return .success
    }
}
