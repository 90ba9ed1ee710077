import Foundation

/// One saved file waiting to be copied to object storage (`--upload`), as the durable
/// upload queue keeps it: one JSON file per job in `<state>/uploads/`, written before
/// the upload starts and removed only after the copy was verified, so that a `kill -9`
/// or a reboot loses no upload.
public struct UploadJob: Codable, Sendable, Equatable {
    /// The job's name in the queue: its time of queueing and a random part, so that the
    /// queue sorts oldest first.
    public var id: String
    /// The file to upload (a saved recording or photo).
    public var file: String
    /// Where it goes, in rclone's syntax: `REMOTE:PATH/NAME`.
    public var destination: String
    /// ``destination`` for messages, listings and logs: an on-the-fly remote's keys and
    /// passwords are `***` (``RcloneRemote/redacted``).
    public var shownDestination: String { RcloneRemote.redact(destination) }
    /// Whether the local file is removed once the copy is verified (`--upload-move`).
    public var move: Bool
    /// The album the file was saved in, whose manifest forgets a moved file.
    public var album: String?
    /// When it was queued.
    public var queued: Date
    /// How many attempts failed so far, in every process.
    public var attempts: Int
    /// When the next attempt is due (back-off after failures).
    public var nextAttempt: Date
    /// Why the last attempt failed.
    public var lastError: String?

    /// A new job, due now.
    public init(id: String, file: String, destination: String, move: Bool, album: String?, queued: Date = Date()) {
        self.id = id
        self.file = file
        self.destination = destination
        self.move = move
        self.album = album
        self.queued = queued
        attempts = 0
        nextAttempt = queued
        lastError = nil
    }

    /// The wait after `failures` failed attempts, in seconds: 2, 4, 8, … up to 5 minutes.
    /// A server back after a restart is found within seconds; one that is down for a day
    /// costs an attempt every five minutes.
    public static func retryDelay(afterFailures failures: Int) -> Double {
        min(2 * pow(2, Double(max(failures, 1) - 1)), 300)
    }
}
