import Glibc
import VidrecMedia
import VidrecSystem

/// Free space on the file system holding a path, for `--min-free`.
public enum FreeSpace {
    /// Bytes available to an unprivileged user on the file system of `path`.
    /// The corresponding C function is `statvfs`.
    public static func available(at path: String) throws(SystemError) -> Int64 {
        var info = statvfs()
        try systemCall(.statvfs, path) { statvfs(path, &info) }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }
}
