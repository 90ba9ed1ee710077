import Foundation
import VidrecCore
import VidrecMedia
import VidrecSystem

/// `vidrec show NAME`: everything known about one item in the album.
struct ShowCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let name = ArgumentKey.positional("name", optional: false, help: "The item's name.")
        static let album = ArgumentKey.option("album", value: "dir", help: "The album folder. (default: $VIDREC_ALBUM or ~/Videos/vidrec)")
        static let json = ArgumentKey.flag("json", help: "Print JSON for scripts.")
    }

    static let spec = CommandSpec(
        name: "show",
        abstract: "Show everything known about one movie or photo in the album.",
        discussion: "NAME is the file's name in the album, with or without its extension, as 'vidrec list' shows it.",
        arguments: [
            Key.name.spec,
            Key.album.spec,
            Key.json.spec,
        ])

    var name: String
    var albumPath: String?
    var json: Bool

    init(_ arguments: ParsedArguments) throws(ParserError) {
        name = arguments[Key.name] ?? ""
        albumPath = arguments[Key.album]
        json = arguments[Key.json]
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let catalog = context.albumCatalog(albumPath)
        let item = try catalog.item(named: name)
        var row = ListCommand.row(item)
        row["tags"] = item.movie?.tags
        if json {
            try context.printJSON(row)
            return .success
        }
        var lines = [
            ("name", item.name), ("path", item.path), ("kind", item.kind.rawValue),
            ("recorded", ListCommand.dateText(item.date)), ("size", ByteCount.format(item.bytes)),
            ("saved by vidrec", item.madeByVidrec ? "yes" : "no (vidrec never changes or removes it)"),
        ]
        if let movie = item.movie {
            if item.kind != .photo { lines.append(("duration", String(format: "%.3f s", movie.duration))) }
            if let resolution = item.resolution { lines.append(("resolution", resolution)) }
            if let rate = movie.frameRate { lines.append(("frame rate", String(format: "%g fps", rate))) }
            lines.append(("codecs", movie.codecs.joined(separator: ", ")))
            for (key, value) in movie.tags.sorted(by: { $0.key < $1.key }) { lines.append((key, value)) }
        }
        if let unreadable = item.unreadable { lines.append(("unreadable", unreadable)) }
        let width = lines.map(\.0.count).max() ?? 0
        for (key, value) in lines {
            context.out(TextSafety.printable(key).padding(toLength: width, withPad: " ", startingAt: 0) + "  " + TextSafety.printable(value) + "\n")
        }
        return .success
    }
}
