import Foundation
import VidrecCore
import VidrecFFmpeg

/// `vidrec save [ID]`: commit a pending recording to the album and print its path.
struct SaveCommand: VidrecCommand {
    static let spec = CommandSpec(
        name: "save",
        abstract: "Save a pending recording to the album and print its path.",
        discussion: """
        Without an ID, saves the newest recording that is not still being written. An \
        interrupted recording (vidrec was killed) is finalized first. Saving is atomic and \
        never replaces a file: a taken name gets ' (2)'.
        """,
        arguments: [
            .positional("id", optional: true, help: "The recording to save (see 'vidrec pending')."),
            .option("as", value: "name", help: "The file name in the album (default: vidrec-<id>)."),
            .option("album", value: "dir", help: "The album folder. (default: $VIDREC_ALBUM or ~/Videos/vidrec)"),
        ])

    var id: String?
    var name: String?
    var albumPath: String?

    init(_ arguments: ParsedArguments) throws(ParserError) {
        id = arguments.positionals["id"]
        name = try SaveCommand.validatedName(arguments[option: "as"])
        albumPath = arguments[option: "album"]
    }

    /// Checks `--as` (or an expanded `--name`): a plain file name, no folders, not hidden.
    static func validatedName(_ name: String?, option: String = "--as <name>") throws(ParserError) -> String? {
        guard let name else { return nil }
        if !RecordingStore.isValidName(name) {
            throw .invalidValue(name, for: option, reason: "give a plain file name of at most \(RecordingStore.maximumNameBytes) bytes, without '/', that does not start with '.'")
        }
        return name
    }

    /// Remembers a saved file as vidrec's, then applies `--keep` and `--album-max-size`.
    static func afterSave(_ saved: String, context: CommandContext, keep: Int?, albumMaxSize: Int64?) throws {
        let manifest = AlbumManifest(stateDirectory: context.paths.stateDirectory)
        try manifest.recordSave(saved)
        guard keep != nil || albumMaxSize != nil else { return }
        let album = URL(fileURLWithPath: saved).deletingLastPathComponent().path
        for removed in try manifest.prune(album: album, keep: keep, maxBytes: albumMaxSize) {
            context.err("vidrec: removed older recording \(removed)\n")
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        let entry = try id.map { try store.entry(id: $0) } ?? store.newestSavable(command: "save")
        let saved = try store.commit(entry, to: context.album(albumPath), name: name, finalizer: MovieFinalizer())
        try SaveCommand.afterSave(saved, context: context, keep: nil, albumMaxSize: nil)
        context.out(saved + "\n")
        return .success
    }
}
