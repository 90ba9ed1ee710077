import Foundation
import VidrecMedia
import VidrecSystem

/// Runs the upload queue on its own thread (`vidrec.upload`): uploads each due job,
/// verifies it, then removes it from the queue (and, with `--upload-move`, the local
/// file); a failed attempt is written back with a back-off (2 s doubling to 5 min).
///
/// While a recording runs, the worker waits for new saves and for jobs to fall due.
/// ``finish(attempts:)`` then gives every job still queued (from this run or an earlier
/// one) up to `attempts` more tries, a few seconds apart, and returns what is left for
/// the next run: the process never waits out a long back-off, and never drops a job.
public final class UploadWorker: @unchecked Sendable {
    private let queue: UploadQueue
    private let transfer: any Uploading
    private let manifest: AlbumManifest?
    private let report: @Sendable (UploadEvent) -> Void
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var finishing = false
    private var attemptsAtEnd = 0
    private var triesAtEnd: [String: (count: Int, last: Date)] = [:]
    private var stopped = false
    /// Jobs another process was uploading, and when to look at them again.
    private var heldElsewhere: [String: Date] = [:]
    private var thread: NamedThread?

    /// A worker for `queue`, copying with `transfer`; `manifest` forgets moved files.
    public init(queue: UploadQueue, transfer: any Uploading, manifest: AlbumManifest?,
                report: @escaping @Sendable (UploadEvent) -> Void) {
        self.queue = queue
        self.transfer = transfer
        self.manifest = manifest
        self.report = report
    }

    /// Starts the thread, which uploads as jobs fall due.
    public func start() {
        condition.lock()
        defer { condition.unlock() }
        guard thread == nil else { return }
        thread = NamedThread(name: "vidrec.upload") { [self] in run() }
    }

    /// Says a job was queued: the thread looks at the queue again at once.
    public func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }

    /// Ends the worker: every job still queued gets up to `attempts` tries more (2 s, 4 s,
    /// … apart, whatever its back-off says), then the thread ends.
    ///
    /// - Returns: the jobs left in the queue.
    public func finish(attempts: Int = 3) -> [UploadJob] {
        condition.lock()
        finishing = true
        attemptsAtEnd = attempts
        condition.broadcast()
        if thread == nil { thread = NamedThread(name: "vidrec.upload") { [self] in run() } }
        let running = thread
        condition.unlock()
        running?.join()
        return queue.jobs()
    }

    /// Whether ``finish(attempts:)`` was called: the command is past its own work and only
    /// uploading.
    public var isFinishing: Bool {
        condition.lock()
        defer { condition.unlock() }
        return finishing
    }

    /// Stops after the attempt under way (Ctrl-C while uploading at the end); the jobs
    /// stay queued.
    public func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func run() {
        while let job = nextJob() {
            attempt(job)
        }
    }

    /// The next job to try, waiting until one falls due; `nil` when the worker is done.
    private func nextJob() -> UploadJob? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped, !(finishing && attemptsAtEnd == 0) {
            let now = Date()
            var wakeAt: Date?
            var candidate: UploadJob?
            for job in queue.jobs() {
                var due: Date
                if finishing {
                    let tried = triesAtEnd[job.id]
                    if let tried, tried.count >= attemptsAtEnd { continue }
                    due = tried.map { $0.last.addingTimeInterval(UploadJob.retryDelay(afterFailures: $0.count)) } ?? now
                } else {
                    due = job.nextAttempt
                }
                if let held = heldElsewhere[job.id] { due = max(due, held) }
                if due <= now {
                    candidate = job
                    break
                }
                wakeAt = min(wakeAt ?? due, due)
            }
            if let candidate {
                if finishing {
                    let count = (triesAtEnd[candidate.id]?.count ?? 0) + 1
                    triesAtEnd[candidate.id] = (count, now)
                }
                return candidate
            }
            if finishing, wakeAt == nil { return nil }
            if let wakeAt { _ = condition.wait(until: wakeAt) } else { condition.wait() }
        }
        return nil
    }

    /// Whether `destination` is a folder on this machine where the copy of `file` is
    /// `file` itself (the album named as its own upload destination).
    static func isSameFile(_ file: String, _ destination: String) -> Bool {
        guard let local = RcloneRemote(parsing: destination)?.localFolder else { return false }
        return FileSystem.sameFile(file, local)
    }

    /// One attempt at `job`, under its lock.
    private func attempt(_ listed: UploadJob) {
        guard let lock = try? queue.claim(listed) else {
            condition.lock()
            heldElsewhere[listed.id] = Date().addingTimeInterval(5)
            condition.unlock()
            return
        }
        // Another process may have finished the job between listing and locking.
        guard var job = queue.current(listed.id) else { return }
        defer { withExtendedLifetime(lock) {} }
        guard FileManager.default.fileExists(atPath: job.file) else {
            try? queue.remove(job)
            report(.dropped(job))
            return
        }
        report(.uploading(job))
        do {
            try transfer.copy(job.file, to: job.destination)
            var proof = try transfer.verify(job.file, against: job.destination)
            // The job goes first: a crash between the two keeps the local copy, never
            // loses it.
            try queue.remove(job)
            if job.move, UploadWorker.isSameFile(job.file, job.destination) {
                // A copy onto the file itself proves nothing; the only copy stays.
                job.move = false
                proof += "; the destination is this very file, so it is kept"
            }
            if job.move {
                FileSystem.removeQuietly(job.file, AlbumSaver.thumbnailPath(for: job.file))
                if let album = job.album { try? manifest?.forget(job.file, album: album) }
            }
            report(.uploaded(job, proof: proof))
        } catch {
            job.attempts += 1
            job.lastError = "\(error)"
            let delay = UploadJob.retryDelay(afterFailures: job.attempts)
            job.nextAttempt = Date().addingTimeInterval(delay)
            try? queue.write(job)
            condition.lock()
            var retryIn: Double? = delay
            if finishing {
                let tried = triesAtEnd[job.id]?.count ?? 0
                retryIn = tried >= attemptsAtEnd || stopped ? nil : UploadJob.retryDelay(afterFailures: tried)
            } else if stopped {
                retryIn = nil
            }
            condition.unlock()
            report(.failed(job, reason: "\(error)", retryIn: retryIn))
        }
    }
}
