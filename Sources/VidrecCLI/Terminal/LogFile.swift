import Foundation
import Glibc
import VidrecMedia
import VidrecSystem

/// `--log FILE`: every line vidrec prints about a recording, appended with a timestamp.
/// The live status line is never logged.
///
/// The file is the user's own: it is opened without following a symbolic link, and must
/// be a regular file that the user owns and no other user can write (a log in a shared
/// folder that someone else made, or linked to a file of the user's, is refused: vidrec
/// never writes where another user points it).
final class LogFile: Sendable {
    private let fd: FileDescriptor

    /// Opens (creating, mode 0600) `path` for appending, and checks what was opened.
    ///
    /// - Throws: ``CLIError`` (``ExitCode/cannotCreate``) naming the path, what is
    ///   wrong with it, and what to do.
    init(path: String) throws {
        let opened: FileDescriptor
        do {
            // O_NONBLOCK: a FIFO without a reader fails at once (ENXIO) instead of waiting.
            opened = try FileDescriptor.open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK)
        } catch where error.errno == ELOOP {
            throw CLIError("log file \(path) is a symbolic link; give the file it points to, or another path, for --log", .cannotCreate)
        } catch where error.errno == ENXIO {
            throw CLIError("log file \(path) is not a regular file; choose a file for --log", .cannotCreate)
        } catch {
            throw CLIError("cannot open log file \(path): \(error.reason); choose another path for --log", .cannotCreate)
        }
        do {
            try LogFile.check(opened, path)
        } catch {
            opened.close()
            throw error
        }
        fd = opened
    }

    /// Refuses a file that is not regular, not the user's, or writable by others.
    private static func check(_ fd: FileDescriptor, _ path: String) throws {
        let status: stat
        do { status = try fd.status(path) } catch {
            throw CLIError("cannot open log file \(path): \(error.reason); choose another path for --log", .cannotCreate)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw CLIError("log file \(path) is not a regular file; choose a file for --log", .cannotCreate)
        }
        guard status.st_uid == geteuid() else {
            throw CLIError("log file \(path) belongs to another user (uid \(status.st_uid)); choose a file of your own for --log", .cannotCreate)
        }
        // Group-writable is the user's own business only in the user's own group.
        let writableByOthers = status.st_mode & S_IWOTH != 0 || (status.st_mode & S_IWGRP != 0 && status.st_gid != getegid())
        guard !writableByOthers else {
            let mode = String(status.st_mode & 0o777, radix: 8)
            throw CLIError("log file \(path) can be written by other users (mode 0\(mode)); run 'chmod go-w' on it, or choose another path for --log",
                           .cannotCreate)
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
