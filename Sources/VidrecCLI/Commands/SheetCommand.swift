import Foundation
import VidrecCore
import VidrecMedia
import VidrecFFmpeg
import VidrecSystem

/// `vidrec sheet`: one JPEG of the album's poster frames, with names and durations.
struct SheetCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let output = ArgumentKey.option("output", value: "file", short: "o", help: "Where to write the JPEG. (default: .thumbnails/contact-sheet.jpg in the album)")
        static let album = ArgumentKey.option("album", value: "dir", help: "The album folder. (default: $VIDREC_ALBUM or ~/Videos/vidrec)")
    }

    static let spec = CommandSpec(
        name: "sheet",
        abstract: "Draw the album's poster frames, with names and durations, into one JPEG.",
        discussion: "Newest first, four to a row. Movies saved without a poster frame (copied in by hand) show their first picture; photos show themselves. Prints the path written.",
        arguments: [
            Key.output.spec,
            Key.album.spec,
        ])

    var output: String?
    var albumPath: String?

    init(_ arguments: ParsedArguments) throws(ParserError) {
        output = arguments[Key.output]
        albumPath = arguments[Key.album]
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let catalog = context.albumCatalog(albumPath)
        let items = try catalog.items().filter { $0.unreadable == nil }
        guard !items.isEmpty else {
            throw CLIError("nothing to draw in \(catalog.folders); save a recording with 'vidrec save' or 'vidrec start --save', or a photo with 'vidrec snap --save'", .noInput)
        }
        let tiles = items.map { item in
            let length = item.kind == .photo ? "photo" : String(format: "%.1f s", item.movie?.duration ?? 0)
            return (picture: item.thumbnail ?? item.path, label: "\(item.name)  \(length)")
        }
        let (jpeg, skipped) = try ContactSheet().renderSkippingUnreadable(tiles)
        for (picture, error) in skipped {
            context.err("vidrec: left out of the contact sheet: \(TextSafety.printable(picture)) (\(TextSafety.printable(error.description)))\n")
        }
        let path = output.map { ($0 as NSString).expandingTildeInPath } ?? catalog.album.path + "/.thumbnails/contact-sheet.jpg"
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        do {
            try Data(jpeg).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIError("cannot write the contact sheet to \(path): \((error as NSError).localizedDescription); choose another file with -o", .cannotCreate)
        }
        context.out(path + "\n")
        return .success
    }
}
