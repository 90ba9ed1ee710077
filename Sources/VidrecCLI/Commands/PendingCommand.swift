import Foundation
import VidrecCore
import VidrecFFmpeg
import VidrecMedia
import VidrecSystem

/// `vidrec pending`: list recordings waiting to be saved.
struct PendingCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let json = ArgumentKey.flag("json", help: "Print JSON for scripts.")
    }

    static let spec = CommandSpec(
        name: "pending",
        abstract: "List recordings and photos that have not been saved yet.",
        discussion: "States: recording (being written now), finished, failed (ended by an error; what was recorded is kept), interrupted (vidrec was killed; 'vidrec save' recovers it).",
        arguments: [Key.json.spec])

    var json: Bool

    init(_ arguments: ParsedArguments) throws(ParserError) {
        json = arguments[Key.json]
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let rows = try PendingCommand.rows(try context.store())
        if json {
            try context.printJSON(rows)
            return .success
        }
        if rows.isEmpty {
            context.out("no pending recordings\n")
            return .success
        }
        func pad(_ text: String, _ width: Int) -> String { text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0) }
        context.out(pad("ID", 20) + " " + pad("STATE", 12) + " " + pad("PRESET", 10) + " " + pad("DURATION", 10) + " SIZE\n")
        for row in rows {
            let state = (row["state"] as! String) + (row["rebuilt"] as! Bool ? "*" : "")
            let duration = row["kind"] as! String == "photo" ? "photo" : String(format: "%.2f s", row["duration"] as! Double)
            context.out(pad(row["id"] as! String, 20) + " " + pad(state, 12) + " "
                        + pad(TextSafety.printable(row["preset"] as! String), 10) + " " + pad(duration, 10) + " "
                        + ByteCount.format(row["bytes"] as! Int64) + "\n")
        }
        if rows.contains(where: { $0["rebuilt"] as! Bool }) {
            context.out("* its sidecar was damaged or missing and was made again from the file; 'vidrec save' keeps it\n")
        }
        return .success
    }

    /// The pending recordings and photos as JSON rows (also `vidrec serve`'s).
    static func rows(_ store: RecordingStore) throws -> [[String: Any]] {
        var rows: [[String: Any]] = []
        for entry in store.list() {
            var duration = entry.sidecar.duration
            if !entry.isPhoto, entry.state == .interrupted || entry.state == .recording {
                // Whatever the fragments written so far hold.
                duration = try? MovieProbe().inspect(entry.partialPath).playableDuration
            }
            rows.append([
                "id": entry.id, "state": entry.state.rawValue, "preset": entry.sidecar.preset,
                "duration": duration ?? 0, "bytes": entry.bytes, "file": FileManager.default.fileExists(atPath: entry.mediaPath) ? entry.mediaPath : entry.partialPath,
                "startTime": entry.sidecar.startTime, "droppedFrames": entry.sidecar.droppedFrames ?? 0,
                "kind": entry.isPhoto ? "photo" : "video", "rebuilt": entry.sidecar.rebuilt ?? false,
            ])
        }
        return rows
    }
}
