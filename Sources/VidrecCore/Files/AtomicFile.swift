import Foundation
import Glibc
import VidrecMedia
import VidrecSystem

/// Replaces a small file whole: the bytes go to `PATH.tmp` (mode 0600, never through a
/// link), optionally `fsync`ed, then renamed over `PATH`, so a reader sees the old file
/// or the new one and never half of one. Used for sidecars, the album manifest and the
/// progress hint.
public enum AtomicFile {
    /// Writes `data` to `path` as described; `durable` syncs it before the rename.
    ///
    /// - Throws: ``SystemError`` naming the step and the file; the old file is untouched,
    ///   and no scratch file is left.
    public static func write(_ data: Data, to path: String, durable: Bool) throws {
        let temporary = path + ".tmp"
        try FileSystem.removeIfPresent(temporary)
        let fd = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, operation: .create)
        do {
            try fd.closeAfter {
                try data.withUnsafeBytes { try fd.writeAll($0.baseAddress!, count: $0.count, temporary) }
                if durable { try fd.sync(temporary) }
            }
            try FileSystem.rename(temporary, to: path)
        } catch {
            FileSystem.removeQuietly(temporary)
            throw error
        }
    }
}
