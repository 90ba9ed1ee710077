import Glibc
import VidrecMedia
import VidrecSystem

/// `mkdir -p`, keeping the C error for messages.
enum Directories {
    /// Creates `path` and any missing parents with `mode`. Existing folders are fine.
    ///
    /// - Throws: ``SystemError`` from the `mkdir` that failed (ENOTDIR when a parent is
    ///   a file, EACCES, EROFS, …).
    static func create(_ path: String, mode: mode_t) throws(SystemError) {
        // A path that cannot be looked at (a parent that is a file) is found out below,
        // at the parent, which names the real culprit.
        if let info = (try? FileSystem.status(path)) ?? nil {
            if (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw SystemError("mkdir", path, errno: ENOTDIR)
        }
        let parent = path.split(separator: "/", omittingEmptySubsequences: true).dropLast().joined(separator: "/")
        if !parent.isEmpty { try create((path.hasPrefix("/") ? "/" : "") + parent, mode: mode) }
        do { try FileSystem.makeDirectory(path, mode: mode) } catch where error.errno == EEXIST {}
    }
}
