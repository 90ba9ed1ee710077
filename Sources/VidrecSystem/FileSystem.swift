import Glibc

/// Operations on paths, each through the ``systemCall(_:_:_:)`` seam, so that a host
/// test can make any of them fail (ENOSPC, EIO, EROFS, …) without a real broken disk.
public enum FileSystem {
    /// Removes `path`. The corresponding C function is `unlink`.
    public static func unlink(_ path: String) throws(SystemError) {
        try systemCall(.unlink, path) { Glibc.unlink(path) }
    }

    /// Removes `path` if it is there; a file already gone is not an error.
    ///
    /// - Returns: whether a file was removed.
    /// - Throws: ``SystemError`` for any other failure (EACCES, EROFS, EIO).
    @discardableResult
    public static func removeIfPresent(_ path: String) throws(SystemError) -> Bool {
        do {
            try unlink(path)
            return true
        } catch where error.errno == ENOENT {
            return false
        }
    }

    /// Removes files that are scratch or bookkeeping (a lock, a temporary, a progress
    /// hint), where a failure changes nothing the user relies on.
    public static func removeQuietly(_ paths: String...) {
        for path in paths { _ = try? removeIfPresent(path) }
    }

    /// Renames `source` to `destination`, replacing it. The corresponding C function is
    /// `rename`.
    public static func rename(_ source: String, to destination: String) throws(SystemError) {
        try systemCall(.rename, destination) { Glibc.rename(source, destination) }
    }

    /// Removes the empty folder `path`. The corresponding C function is `rmdir`.
    public static func removeDirectory(_ path: String) throws(SystemError) {
        try systemCall(.rmdir, path) { rmdir(path) }
    }

    /// Sets the permissions of `path` to `mode`. The corresponding C function is `chmod`.
    public static func changeMode(_ path: String, to mode: mode_t) throws(SystemError) {
        try systemCall(.chmod, path) { chmod(path, mode) }
    }

    /// Makes the folder `path` with `mode`. The corresponding C function is `mkdir`.
    public static func makeDirectory(_ path: String, mode: mode_t) throws(SystemError) {
        try systemCall(.mkdir, path) { mkdir(path, mode) }
    }

    /// What `path` is, following a final link; `nil` when there is nothing there.
    ///
    /// - Throws: ``SystemError`` for failures other than ENOENT (EACCES, EIO, ELOOP).
    /// The corresponding C function is `stat`.
    public static func status(_ path: String) throws(SystemError) -> stat? {
        var info = stat()
        do {
            try systemCall(.stat, path) { stat(path, &info) }
        } catch where error.errno == ENOENT {
            return nil
        }
        return info
    }

    /// What `path` itself is, without following a final link; `nil` when there is
    /// nothing there. The corresponding C function is `lstat`.
    public static func linkStatus(_ path: String) throws(SystemError) -> stat? {
        var info = stat()
        do {
            try systemCall(.lstat, path) { lstat(path, &info) }
        } catch where error.errno == ENOENT {
            return nil
        }
        return info
    }

    /// Whether `path` is a folder (following links). Unreadable counts as not.
    public static func isDirectory(_ path: String) -> Bool {
        guard let info = try? status(path) else { return false }
        return info.st_mode & S_IFMT == S_IFDIR
    }
}

extension FileSystem {
    /// Checks that this process may use `path` as `mode` asks (`W_OK | X_OK`, …).
    /// The corresponding C function is `access`.
    public static func checkAccess(_ path: String, _ mode: Int32) throws(SystemError) {
        try systemCall(.access, path) { access(path, mode) }
    }

    /// Whether process `pid` is gone (not merely owned by another user).
    /// The corresponding C function is `kill` with signal 0.
    public static func processIsGone(_ pid: Int32) -> Bool {
        do {
            try systemCall(.kill, "process \(pid)") { kill(pid, 0) }
            return false
        } catch {
            return error.errno == ESRCH
        }
    }
}

extension FileSystem {
    /// Sends `signal` to process `pid`. The corresponding C function is `kill`.
    public static func signal(_ pid: Int32, _ signal: Int32) throws(SystemError) {
        try systemCall(.kill, "process \(pid)") { kill(pid, signal) }
    }

    /// Flushes the file at `path` to the disk, opening it for the purpose (for a file
    /// another library wrote and closed). The corresponding C functions are `open` and
    /// `fsync`.
    public static func sync(_ path: String) throws(SystemError) {
        let fd = try FileDescriptor.open(path, O_RDONLY)
        try fd.closeAfter { () throws(SystemError) in try fd.sync(path) }
    }

    /// Whether `a` and `b` are the same file or folder (device and inode), following
    /// links; `false` when either does not exist.
    /// The corresponding C function is `stat`.
    public static func sameFile(_ a: String, _ b: String) -> Bool {
        guard let first = try? status(a), let second = try? status(b) else { return false }
        return first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }

    /// Whether the folders `a` and `b` are one: the same folder on disk, or, while they
    /// do not exist yet, the same path once `.` and `..` are resolved.
    public static func sameFolder(_ a: String, _ b: String) -> Bool {
        if sameFile(a, b) { return true }
        func normal(_ path: String) -> [Substring] {
            var parts: [Substring] = []
            for part in path.split(separator: "/") where part != "." {
                if part == ".." { _ = parts.popLast() } else { parts.append(part) }
            }
            return parts
        }
        return normal(a) == normal(b)
    }
}
