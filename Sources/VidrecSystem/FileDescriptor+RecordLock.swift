import Glibc

extension FileDescriptor {
    /// Takes a write lock on the whole file for this process, without waiting: a POSIX
    /// record lock, which another process can ask about (``recordLockHolder(_:)``) and
    /// which goes when this process closes any descriptor of the file or ends.
    ///
    /// - Returns: `false` when another process holds a lock on the file.
    /// The corresponding C function is `fcntl` with `F_SETLK`.
    public func lockRecord(_ subject: String) throws(SystemError) -> Bool {
        var lock = flock(l_type: Int16(F_WRLCK), l_whence: Int16(SEEK_SET), l_start: 0, l_len: 0, l_pid: 0)
        do {
            try systemCall(.fcntl, subject) { fcntl(rawValue, F_SETLK, &lock) }
            return true
        } catch where error.errno == EAGAIN || error.errno == EACCES {
            return false
        }
    }

    /// The process holding a write lock on the file (``lockRecord(_:)``), if one does.
    /// The corresponding C function is `fcntl` with `F_GETLK`.
    public func recordLockHolder(_ subject: String) throws(SystemError) -> Int32? {
        var lock = flock(l_type: Int16(F_RDLCK), l_whence: Int16(SEEK_SET), l_start: 0, l_len: 0, l_pid: 0)
        try systemCall(.fcntl, subject) { fcntl(rawValue, F_GETLK, &lock) }
        return lock.l_type == Int16(F_UNLCK) ? nil : lock.l_pid
    }
}
