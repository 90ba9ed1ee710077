import Foundation
import VidrecCore
import VidrecMedia
import VidrecSystem

/// `vidrec upload [--list] [--json]`: run the upload queue now, or show it.
struct UploadCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let list = ArgumentKey.flag("list", help: "List the queue instead of uploading.")
        static let json = ArgumentKey.flag("json", help: "With --list: print JSON for scripts.")
        static let quiet = ArgumentKey.flag("quiet", help: "Print nothing unless files are left queued (for cron).")
    }

    static let spec = CommandSpec(
        name: "upload",
        abstract: "Upload what is queued for object storage now, or list the queue.",
        discussion: """
        Files saved with --upload are queued in the state folder before anything is \
        sent, and leave the queue only once the uploaded copy's checksum matches. A \
        recording retries while it runs; this command tries every queued file now (up \
        to three times each) and exits 75 if some are still queued, for cron to run again.
        """,
        arguments: [
            Key.list.spec,
            Key.json.spec,
            Key.quiet.spec,
        ])

    var list: Bool
    var json: Bool
    var quiet: Bool

    init(_ arguments: ParsedArguments) throws(ParserError) {
        list = arguments[Key.list]
        json = arguments[Key.json]
        quiet = arguments[Key.quiet]
        if json, !list { throw .conflicting("--json", "uploading; add --list") }
        if quiet, list { throw .conflicting("--quiet", "--list") }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let queue = UploadQueue(stateDirectory: context.paths.stateDirectory)
        let jobs = queue.jobs()
        if list {
            try show(jobs, damaged: queue.damaged(), context)
            return .success
        }
        let quiet = quiet
        let say: @Sendable (String) -> Void = { text in if !quiet { context.err(text) } }
        guard !jobs.isEmpty else {
            say("vidrec: no uploads queued\n")
            return .success
        }
        guard let rclone = Rclone(environment: context.paths.environment) else {
            throw CLIError("rclone is not installed, and \(jobs.count) upload\(jobs.count == 1 ? " is" : "s are") queued: install it with 'apt-get install rclone'", .unavailable)
        }
        let runner = UploadRunner(stateDirectory: context.paths.stateDirectory, rclone: rclone, manifest: context.manifest, log: say)
        SignalWatcher.blockSignals()
        _ = SignalWatcher { _ in
            context.err("vidrec: stopping; what is not uploaded stays queued\n")
            runner.stop()
        }
        let left = runner.finish()
        if let line = UploadRunner.leftover(left) {
            context.err(line)
            return .temporaryFailure
        }
        say("vidrec: every queued file is uploaded\n")
        return .success
    }

    private func show(_ jobs: [UploadJob], damaged: [String], _ context: CommandContext) throws {
        let formatter = ISO8601DateFormatter()
        if json {
            try context.printJSON(jobs.map { job -> [String: Any] in
                var row: [String: Any] = ["id": job.id, "file": job.file, "destination": job.shownDestination, "move": job.move,
                                          "attempts": job.attempts, "queued": formatter.string(from: job.queued),
                                          "nextAttempt": formatter.string(from: job.nextAttempt)]
                if let error = job.lastError { row["lastError"] = error }
                return row
            })
            return
        }
        for file in damaged { context.err("vidrec: \(file) could not be read and was set aside; its file was not uploaded\n") }
        guard !jobs.isEmpty else {
            context.out("no uploads queued\n")
            return
        }
        for job in jobs {
            var line = "\(job.id)  \(job.file) -> \(job.shownDestination)"
            if job.move { line += " (move)" }
            if job.attempts > 0 { line += "  \(job.attempts) failed attempt\(job.attempts == 1 ? "" : "s"): \(job.lastError ?? "")" }
            context.out(line + "\n")
        }
    }
}
