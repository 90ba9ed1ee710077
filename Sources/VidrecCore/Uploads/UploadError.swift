import VidrecMedia
import VidrecSystem

/// Why an upload attempt failed: the step (`copy`, `verify`), the destination and the
/// reason as the transfer tool gave it.
public struct UploadError: Error, CustomStringConvertible, Sendable {
    /// The step that failed.
    public let operation: String
    /// The destination, in rclone's syntax, its secrets redacted (``RcloneRemote/redacted``).
    public let destination: String
    /// The reason.
    public let reason: String

    /// An error of `operation` on `destination`.
    public init(_ operation: String, _ destination: String, _ reason: String) {
        self.operation = operation
        self.destination = RcloneRemote.redact(destination)
        self.reason = reason
    }

    public var description: String { "\(operation) to \(destination): \(reason)" }
}

extension UploadError: ExitCoded {
    /// An upload that failed stays queued; what the command exits with is decided by
    /// the queue (75 while files are still queued), so the error itself is a plain failure.
    public var exitCode: ExitCode { .failure }
}
