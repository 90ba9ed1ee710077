import Foundation
import Glibc
import VidrecMedia

/// Replaces a small file whole: the bytes go to `PATH.tmp` (mode 0600, never through a
/// link), optionally `fsync`ed, then renamed over `PATH`, so a reader sees the old file
/// or the new one and never half of one. Used for sidecars, the album manifest and the
/// progress hint.
enum AtomicFile {
    /// Writes `data` to `path` as described; `durable` syncs it before the rename.
    ///
    /// - Throws: ``SystemError`` naming the step and the file; the old file is untouched.
    static func write(_ data: Data, to path: String, durable: Bool) throws {
        let temporary = path + ".tmp"
        unlink(temporary)
        let fd = try systemCall("create", temporary) {
            open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        }
        do {
            try data.withUnsafeBytes { try writeAll(fd, $0.baseAddress!, $0.count, temporary) }
            if durable { try systemCall("fsync", temporary) { fsync(fd) } }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        try systemCall("rename", path) { rename(temporary, path) }
    }
}
