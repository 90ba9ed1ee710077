import Foundation
import VidrecCore
import VidrecFFmpeg
import VidrecMedia
import VidrecMP4
import VidrecSystem

/// `vidrec save [ID]`: commit a pending recording to the album and print its path.
struct SaveCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let id = ArgumentKey.positional("id", optional: true, help: "The recording to save (see 'vidrec pending').")
        static let saveAs = ArgumentKey.option("as", value: "name", help: "The file name in the album (default: vidrec-<id>).")
        static let album = ArgumentKey.option("album", value: "dir", help: "The album folder. (default: for a recording $VIDREC_ALBUM or ~/Videos/vidrec; for a photo $VIDREC_PHOTOS or ~/Pictures/vidrec)")
    }

    static let spec = CommandSpec(
        name: "save",
        abstract: "Save a pending recording or photo to the album and print its path.",
        discussion: """
        Without an ID, saves the newest recording that is not still being written. An \
        interrupted recording (vidrec was killed) is finalized first. Saving is atomic and \
        never replaces a file: a taken name gets ' (2)'.
        """,
        arguments: [
            Key.id.spec,
            Key.saveAs.spec,
            Key.album.spec,
        ] + UploadOptions.arguments)

    var id: String?
    var name: String?
    var albumPath: String?
    var upload: UploadOptions?

    init(_ arguments: ParsedArguments) throws(ParserError) {
        id = arguments[Key.id]
        upload = try UploadOptions.parse(arguments)
        name = try AlbumFileName.validated(arguments[Key.saveAs])
        albumPath = arguments[Key.album]
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        let entry = try id.map { try store.entry(id: $0) } ?? store.newestSavable(command: "save")
        let rclone = try upload?.check(environment: context.paths.environment, album: context.album(albumPath, for: entry).path)
        let saver = AlbumSaver(store: store, manifest: context.manifest, finalizer: MovieFinalizer(), posterFrames: PosterFrame(),
                                warn: { [err = context.err] in err("vidrec: \($0)\n") })
        let album = context.album(albumPath, for: entry)
        let (saved, _) = try saver.save(entry, to: SaveRequest(album: album), name: name)
        context.out(saved + "\n")
        guard let upload, let rclone else { return .success }
        // Saved first: the upload is queued durably, then tried now.
        return try UploadRunner.uploadNow(saved, album: album.path, options: upload, rclone: rclone, context: context)
    }
}
