import Foundation
import Glibc
import VidrecMedia
import VidrecSystem

/// `--log FILE`: every line vidrec prints about a recording, appended with a timestamp.
/// The live status line is never logged.
final class LogFile: Sendable {
    private let fd: FileDescriptor

    /// Opens (creating, mode 0600) `path` for appending.
    init(path: String) throws {
        do {
            fd = try FileDescriptor.open(path, O_WRONLY | O_APPEND | O_CREAT)
        } catch {
            throw CLIError("cannot open log file \(path): \(error.reason); choose another path for --log", .cannotCreate)
        }
    }

    /// Appends `text`, each line prefixed with the local time.
    func write(_ text: String) {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        let stamp = formatter.string(from: Date())
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map { "\(stamp) \($0)\n" }.joined()
        // A log that cannot be written must not stop the recording it describes.
        lines.withCString { text in _ = try? fd.writeAll(text, count: strlen(text), "log") }
    }

    deinit { fd.close() }
}
