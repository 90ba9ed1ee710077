import Foundation
import VidrecCore
import VidrecMedia
import VidrecSystem

/// The upload queue as one command runs it: queues what the command saves, uploads on
/// the `vidrec.upload` thread while the command goes on, and at the end gives what is
/// left a few more tries before leaving it queued for the next run.
final class UploadRunner: Sendable {
    private let queue: UploadQueue
    private let rclone: Rclone
    private let worker: UploadWorker

    /// A runner for the state folder's queue, reporting each step through `log`.
    init(stateDirectory: String, rclone: Rclone, manifest: AlbumManifest, log: @escaping @Sendable (String) -> Void) {
        queue = UploadQueue(stateDirectory: stateDirectory)
        self.rclone = rclone
        worker = UploadWorker(queue: queue, transfer: rclone, manifest: manifest) { event in
            log(UploadRunner.describe(event) + "\n")
        }
    }

    /// Starts uploading in the background (jobs queued earlier go too, when due).
    func start() { worker.start() }

    /// Queues `file`, saved in `album`, for `options`' remote, and wakes the thread.
    ///
    /// - Throws: when the queue cannot be written (the file itself stays saved).
    func enqueue(_ file: String, album: String?, options: UploadOptions) throws {
        try queue.enqueue(file: file, remote: options.remote, album: album, move: options.move)
        worker.wake()
    }

    /// Whether the command is past its own work and only uploading.
    var isFinishing: Bool { worker.isFinishing }

    /// Gives every queued job up to three more tries, then returns what is left.
    func finish() -> [UploadJob] { worker.finish(attempts: 3) }

    /// Stops after the rclone run under way is ended (Ctrl-C while uploading); the jobs
    /// stay queued.
    func stop() {
        worker.stop()
        rclone.interrupt()
    }

    /// Queues `file`, saved in `album`, and uploads it (with whatever else is queued)
    /// before the command ends: `vidrec save --upload` and `vidrec snap --save --upload`.
    ///
    /// - Returns: `.success`, or `.temporaryFailure` when uploads are left queued (said
    ///   on stderr).
    static func uploadNow(_ file: String, album: String, options: UploadOptions, rclone: Rclone,
                          context: CommandContext) throws -> ExitCode {
        let runner = UploadRunner(stateDirectory: context.paths.stateDirectory, rclone: rclone, manifest: context.manifest, log: context.err)
        try runner.enqueue(file, album: album, options: options)
        guard let line = leftover(runner.finish()) else { return .success }
        context.err(line)
        return .temporaryFailure
    }

    /// The line that says what is left in the queue and how it gets uploaded, or `nil`
    /// when nothing is.
    static func leftover(_ jobs: [UploadJob]) -> String? {
        guard let last = jobs.last else { return nil }
        let count = jobs.count == 1 ? "1 upload is" : "\(jobs.count) uploads are"
        return "vidrec: \(count) still queued (last error: \(last.lastError ?? "not tried yet")); the files are safe here: 'vidrec upload' tries again, as does the next 'vidrec start --upload'\n"
    }

    /// One log line for `event`.
    static func describe(_ event: UploadEvent) -> String {
        switch event {
        case .uploading(let job):
            return "vidrec: uploading \(job.file) to \(job.shownDestination)"
        case let .uploaded(job, proof):
            return "vidrec: uploaded \(job.file) to \(job.shownDestination) (verified: \(proof))" + (job.move ? "; the local copy is removed" : "")
        case let .failed(job, reason, retryIn):
            let next = retryIn.map { String(format: "retrying in %.0f s", $0) } ?? "it stays queued"
            return "vidrec: upload of \(job.file) failed (attempt \(job.attempts)): \(reason); \(next)"
        case .dropped(let job):
            return "vidrec: \(job.file) is gone; its upload to \(job.shownDestination) is dropped"
        }
    }
}
