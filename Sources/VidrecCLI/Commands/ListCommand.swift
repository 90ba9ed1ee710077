import Foundation
import VidrecCore
import VidrecMedia
import VidrecSystem

/// `vidrec list` (or `vidrec album`): what is in the album, newest first.
struct ListCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let album = ArgumentKey.option("album", value: "dir", help: "One folder to list. (default: the album, $VIDREC_ALBUM or ~/Videos/vidrec, and the photo album, $VIDREC_PHOTOS or ~/Pictures/vidrec)")
        static let json = ArgumentKey.flag("json", help: "Print JSON for scripts.")
    }

    static let spec = CommandSpec(
        name: "list", aliases: ["album"],
        abstract: "List the movies and photos in the album, newest first.",
        discussion: "Items that vidrec did not save (copied in by hand) are listed too, marked with '*' (\"madeByVidrec\": false in JSON); vidrec never changes or removes them.",
        arguments: [
            Key.album.spec,
            Key.json.spec,
        ])

    var albumPath: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws(ParserError) {
        albumPath = arguments[Key.album]
        json = arguments[Key.json]
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let catalog = context.albumCatalog(albumPath)
        let items = try catalog.items()
        if json {
            try context.printJSON(items.map(ListCommand.row))
            return .success
        }
        guard !items.isEmpty else {
            context.out("\(TextSafety.printable(catalog.folders)) \(catalog.albums.count == 1 ? "is" : "are") empty; save a recording with 'vidrec save' or 'vidrec start --save', or a photo with 'vidrec snap --save'\n")
            return .success
        }
        let table = [["NAME", "DATE", "DURATION", "RESOLUTION", "PRESET", "SIZE", "CAMERA"]] + items.map { item in
            [(item.madeByVidrec ? "" : "*") + TextSafety.printable(item.name), ListCommand.dateText(item.date),
             item.kind == .photo ? "photo" : item.movie.map { String(format: "%.1f s", $0.duration) } ?? "unreadable",
             item.resolution ?? "-", TextSafety.printable(item.preset ?? "-"), ByteCount.format(item.bytes), TextSafety.printable(item.camera ?? "-")]
        }
        let widths = (0..<table[0].count).map { column in table.map { $0[column].count }.max() ?? 0 }
        for row in table {
            let cells = row.enumerated().map { column, text in
                column == row.count - 1 ? text : text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            context.out(cells.joined(separator: "  ") + "\n")
        }
        if items.contains(where: { !$0.madeByVidrec }) { context.out("* not saved by vidrec\n") }
        return .success
    }

    /// One item as JSON.
    static func row(_ item: AlbumItem) -> [String: Any] {
        var row: [String: Any] = [
            "name": item.name, "path": item.path, "kind": item.kind.rawValue, "bytes": item.bytes,
            "date": ISO8601DateFormatter().string(from: item.date), "madeByVidrec": item.madeByVidrec,
        ]
        if let movie = item.movie {
            row["duration"] = movie.duration
            row["codecs"] = movie.codecs
            row["width"] = movie.width
            row["height"] = movie.height
            row["frameRate"] = movie.frameRate
            row["title"] = movie.tags[MovieMetadataKey.title]
        }
        row["preset"] = item.preset
        row["camera"] = item.camera
        row["unreadable"] = item.unreadable
        row["thumbnail"] = item.thumbnail
        return row
    }

    /// `2026-11-30 10:15`, in local time.
    static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
