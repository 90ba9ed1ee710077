import Glibc
import VidrecMedia
import VidrecSystem

/// A folder only its user may change: vidrec's state and pending folders, and the
/// folder its control sockets live in. Made with mode 0700 where missing; one that
/// already exists must be a real folder (not a link), owned by this user, and not
/// writable by the group or others — otherwise another user could put a sidecar, a
/// link or a socket of their own there.
public enum PrivateFolder {
    /// Creates `path` (and missing parents) with mode 0700, or checks the one there.
    ///
    /// - Parameter closed: also refuse a folder the group or others may read or enter
    ///   (for the socket folder, which vidrec always makes itself).
    /// - Throws: ``Problem`` saying what is wrong and the command that fixes it, or the
    ///   ``SystemError`` of the `mkdir` that failed.
    public static func prepare(_ path: String, closed: Bool = false) throws {
        try Directories.create(path, mode: 0o700)
        try check(path, closed: closed)
    }

    /// Checks `path` as ``prepare(_:closed:)`` does, without creating it.
    public static func check(_ path: String, closed: Bool = false) throws(Problem) {
        guard let info = try? FileSystem.linkStatus(path) else { throw Problem(path: path, reason: "it cannot be looked at") }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw Problem(path: path, reason: "it is not a folder (a link or a file); remove it, and vidrec makes the folder again")
        }
        guard info.st_uid == geteuid() else {
            throw Problem(path: path, reason: "it belongs to user \(info.st_uid), not to you (\(geteuid())); remove it, or set XDG_STATE_HOME or XDG_RUNTIME_DIR to a folder of your own")
        }
        let mode = info.st_mode & 0o777
        if mode & (closed ? 0o077 : 0o022) != 0 {
            throw Problem(path: path, reason: String(format: "others may %@ it (mode %03o); fix it with 'chmod 700 %@'",
                                                     closed ? "open" : "write in", mode, path))
        }
    }

    /// Why a folder is not private.
    public struct Problem: Error, CustomStringConvertible, Sendable {
        /// The folder.
        public var path: String
        /// What is wrong, and the fix.
        public var reason: String

        public var description: String { "the folder \(path) is not safe to keep recordings' state in: \(reason)" }
    }
}

extension PrivateFolder.Problem: ExitCoded {
    public var exitCode: ExitCode { .cannotCreate }
}
