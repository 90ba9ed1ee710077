import Foundation
import VidrecCore

/// `vidrec status`: what is recording now, and what is pending.
struct StatusCommand: VidrecCommand {
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show the running recording, if any, and how many are pending.",
        discussion: "",
        arguments: [])

    init(_ arguments: ParsedArguments) throws(ParserError) {}

    func run(_ context: CommandContext) throws -> ExitCode {
        let entries = try context.store().list()
        let running = entries.filter { $0.state == .recording }
        if running.isEmpty {
            context.out("not recording\n")
        }
        for entry in running {
            let started = ISO8601DateFormatter().date(from: entry.sidecar.startTime)
            let elapsed = started.map { String(format: "%.0f s", Date().timeIntervalSince($0)) } ?? "?"
            let limit = entry.sidecar.maxDuration.map { String(format: " of %g s", $0) } ?? ""
            context.out("recording \(entry.id) (pid \(entry.sidecar.pid), \(entry.sidecar.preset)): \(elapsed)\(limit), \(ByteCount.format(entry.bytes)), from \(entry.sidecar.camera)\n")
        }
        let waiting = entries.count - running.count
        context.out("\(waiting) pending recording\(waiting == 1 ? "" : "s")" + (waiting > 0 ? " (see 'vidrec pending')" : "") + "\n")
        return .success
    }
}
