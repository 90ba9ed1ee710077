import Foundation
import Glibc
import VidrecMedia
import VidrecSystem

/// The durable upload queue (`--upload`): `<state>/uploads/ID.json`, one job per file,
/// written with fsync before anything is sent and removed only after the copy was
/// verified. It survives `kill -9` and reboots: whichever vidrec runs the queue next
/// (`vidrec upload`, or any `vidrec start --upload`) takes the jobs up again.
///
/// Two processes may run the queue at once (a continuous recording and a cron job):
/// each job is uploaded under an exclusive lock (`ID.lock`), and a job that another
/// process holds is left to it.
public struct UploadQueue: Sendable {
    /// `<state>/uploads`.
    public let directory: String

    /// The queue under the state folder.
    public init(stateDirectory: String) { directory = stateDirectory + "/uploads" }

    private func path(_ id: String) -> String { directory + "/" + id + ".json" }

    /// Where a file saved as `name` (relative to its album, folders included) goes under
    /// `remote` (`REMOTE:PATH`, `:backend,…:PATH` or a local folder).
    public static func destination(_ remote: String, name: String) -> String {
        remote.hasSuffix(":") || remote.hasSuffix("/") ? remote + name : remote + "/" + name
    }

    /// Queues `file` (saved in `album`, or by itself) for `remote`, durably.
    ///
    /// - Returns: the job written.
    /// - Throws: ``SystemError`` when the queue cannot be written.
    @discardableResult
    public func enqueue(file: String, remote: String, album: String?, move: Bool, now: Date = Date()) throws -> UploadJob {
        if !FileSystem.isDirectory(directory) { try FileSystem.makeDirectory(directory, mode: 0o700) }
        let name = album.flatMap { Album.name(of: file, in: $0) } ?? URL(fileURLWithPath: file).lastPathComponent
        // Whole seconds: the job file keeps times to the second.
        let now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let stamp = UploadQueue.stamp.string(from: now)
        let random = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let job = UploadJob(id: stamp + "-" + String(repeating: "0", count: 8 - random.count) + random, file: file,
                            destination: UploadQueue.destination(remote, name: name), move: move, album: album, queued: now)
        try write(job)
        return job
    }

    /// The jobs waiting, oldest first. A job file that cannot be read is moved aside to
    /// `ID.json.damaged` (and reported by `vidrec upload --list`), never silently lost.
    public func jobs() -> [UploadJob] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
        var jobs: [UploadJob] = []
        for name in names {
            let file = directory + "/" + name
            let read: Data?
            do { read = try StateFile.read(file, limit: 1 << 20) } catch {
                try? FileSystem.rename(file, to: file + ".damaged")  // not a regular file, or too big
                continue
            }
            guard let data = read else { continue }
            // A job is known by its file's name: one whose ID says otherwise (copied or
            // edited by hand) could never be claimed or removed, and would be tried forever.
            if let job = try? UploadQueue.decoder.decode(UploadJob.self, from: data), job.id + ".json" == name,
               UploadQueue.isValidID(job.id) {
                jobs.append(job)
            } else {
                try? FileSystem.rename(file, to: file + ".damaged")
            }
        }
        return jobs
    }

    /// Whether `id` can name a job file: vidrec's own IDs are digits, `-` and hex letters.
    static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64 && id.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isASCIIHexDigit || $0 == "-") }
    }

    /// Job files that could not be read, moved aside.
    public func damaged() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".damaged") }.sorted()
            .map { directory + "/" + $0 }
    }

    /// The job as it stands on disk now (another process may have finished it).
    public func current(_ id: String) -> UploadJob? {
        StateFile.contents(path(id), limit: 1 << 20).flatMap { try? UploadQueue.decoder.decode(UploadJob.self, from: $0) }
    }

    /// Writes `job` (a failed attempt's count and next time) durably.
    public func write(_ job: UploadJob) throws {
        try AtomicFile.write(UploadQueue.encoder.encode(job), to: path(job.id), durable: true)
    }

    /// Takes `job` for this process: an exclusive lock on `ID.lock`, held while the
    /// returned lock lives.
    ///
    /// - Returns: `nil` when another process is uploading it.
    public func claim(_ job: UploadJob) throws -> RecordingLock? {
        try RecordingLock(acquiring: directory + "/" + job.id + ".lock")
    }

    /// Removes `job` from the queue (its copy was verified, or its file is gone), durably.
    public func remove(_ job: UploadJob) throws {
        try FileSystem.unlink(path(job.id))
        FileSystem.removeQuietly(directory + "/" + job.id + ".lock")
        try FileSystem.sync(directory)
    }

    private static let stamp: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter
    }()

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
