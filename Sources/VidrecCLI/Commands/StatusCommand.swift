import Foundation
import VidrecCore
import VidrecMedia
import VidrecSystem

/// `vidrec status`: what is recording now, and what is pending.
struct StatusCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let json = ArgumentKey.flag("json", help: "Print the running recordings as JSON, for scripts.")
    }

    static let spec = CommandSpec(
        name: "status",
        abstract: "Show the running recordings, if any, and how many are pending.",
        discussion: "For each running recording: how much it has recorded (media time, frames, size) and whether it is paused, as it reported within the last half second.",
        arguments: [Key.json.spec])

    var json: Bool

    init(_ arguments: ParsedArguments) throws(ParserError) {
        json = arguments[Key.json]
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        let entries = store.list()
        // One row for each recording process, not each file it has open.
        let running = store.runningRecordings()
        if json {
            let rows: [[String: Any]] = running.map { entry in
                let progress = store.progress(of: entry)
                var row: [String: Any] = [
                    "id": entry.id, "pid": Int(entry.sidecar.pid), "preset": entry.sidecar.preset,
                    "camera": entry.sidecar.camera, "startTime": entry.sidecar.startTime,
                    "duration": progress?.elapsed ?? 0, "videoFrames": progress?.videoFrames ?? 0,
                    "droppedFrames": progress?.droppedFrames ?? 0, "bytes": entry.bytes,
                    "encodingBacklog": progress?.encodingBacklog ?? 0,
                    "encodingBacklogFrames": progress?.encodingBacklogFrames ?? 0,
                    "encodingDroppedFrames": progress?.encodingDroppedFrames ?? 0,
                    "paused": progress?.isPaused ?? false,
                ]
                if let limit = entry.sidecar.maxDuration { row["maxDuration"] = limit }
                if let gone = progress?.cameraGone { row["cameraGone"] = gone }
                if let gone = progress?.microphoneGone { row["microphoneGone"] = gone }
                return row
            }
            try context.printJSON(rows)
            return .success
        }
        if running.isEmpty {
            context.out("not recording\n")
        }
        for entry in running {
            let progress = store.progress(of: entry)
            let recorded = (progress?.isPaused == true ? "paused at " : "") + String(format: "%.1f s", progress?.elapsed ?? 0)
            let limit = entry.sidecar.maxDuration.map { String(format: " of %g s", $0) } ?? ""
            let frames = progress.flatMap { $0.isAudioOnly ? nil : ", \($0.videoFrames) frames" + ($0.droppedFrames > 0 ? ", \($0.droppedFrames) dropped" : "") } ?? ""
            let behind = progress.map(BacklogNote.status) ?? ""
            let gone = (progress?.cameraGone.map { String(format: " (gone for %.1f s; waiting for it to come back)", $0) } ?? "")
                + (progress?.microphoneGone.map { String(format: " (microphone gone for %.1f s; silence until it comes back)", $0) } ?? "")
            context.out("recording \(entry.id) (pid \(entry.sidecar.pid), \(entry.sidecar.preset)): \(recorded)\(limit)\(frames), \(ByteCount.format(entry.bytes)), from \(entry.sidecar.camera)\(gone)\(behind)\n")
        }
        let waiting = entries.filter { $0.state != .recording }.count
        context.out("\(waiting) pending recording\(waiting == 1 ? "" : "s")" + (waiting > 0 ? " (see 'vidrec pending')" : "") + "\n")
        return .success
    }
}
