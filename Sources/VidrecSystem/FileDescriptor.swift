import CSystemShims
import Glibc

/// An open file descriptor: a thin handle, as swift-system's `FileDescriptor`. It does
/// not close itself; whoever opens one closes it, with ``close()`` or, for a scope,
/// ``closeAfter(_:)``. Every operation goes through the ``systemCall(_:_:_:)`` seam, so
/// a test can make any of them fail with the errno it wants.
public struct FileDescriptor: RawRepresentable, Hashable, Sendable {
    /// The kernel's number for the descriptor.
    public let rawValue: Int32

    /// Wraps a descriptor opened elsewhere.
    public init(rawValue: Int32) { self.rawValue = rawValue }
}

extension FileDescriptor {
    /// Opens `path`; `O_CLOEXEC` is always added.
    ///
    /// - Parameters:
    ///   - operation: the name the seam and errors use (`open`, `create`).
    ///   - permissions: the mode for a file that `O_CREAT` makes.
    /// - Throws: ``SystemError`` naming `operation` and `path`.
    /// The corresponding C function is `open`.
    public static func open(_ path: String, _ flags: Int32, permissions: mode_t = 0o600,
                            operation: Syscall = .open) throws(SystemError) -> FileDescriptor {
        FileDescriptor(rawValue: try systemCall(operation, path) { Glibc.open(path, flags | O_CLOEXEC, permissions) })
    }

    /// Closes the descriptor. A failure of `close` is not reported: data that must be
    /// on disk is made so with ``sync(_:)`` before. The corresponding C function is `close`.
    public func close() {
        // EINTR after close on Linux means the descriptor is gone: never retry.
        let result = Glibc.close(rawValue)
        precondition(result == 0 || errno != EBADF, "close of a descriptor that was not open")
    }

    /// Runs `body`, then closes the descriptor, whether `body` throws or not.
    public func closeAfter<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        defer { close() }
        return try body()
    }

    /// Flushes the file's data and metadata to the disk.
    /// The corresponding C function is `fsync`.
    public func sync(_ subject: String) throws(SystemError) {
        try systemCall(.fsync, subject) { fsync(rawValue) }
    }

    /// Reads up to `count` bytes into `buffer`.
    ///
    /// - Returns: the bytes read; 0 at the end of the file.
    /// The corresponding C function is `read`.
    public func read(into buffer: UnsafeMutableRawPointer, count: Int, _ subject: String) throws(SystemError) -> Int {
        try systemCall(.read, subject) { Glibc.read(rawValue, buffer, count) }
    }

    /// Writes all `count` bytes at `bytes`, continuing after short writes and EINTR.
    /// The corresponding C function is `write`.
    public func writeAll(_ bytes: UnsafeRawPointer, count: Int, _ subject: String) throws(SystemError) {
        var done = 0
        while done < count {
            done += try systemCall(.write, subject) { Glibc.write(rawValue, bytes + done, count - done) }
        }
    }

    /// Writes all `count` bytes at `bytes` at `offset`, continuing after short writes and
    /// EINTR. The corresponding C function is `pwrite`.
    public func writeAll(_ bytes: UnsafeRawPointer, count: Int, at offset: Int64, _ subject: String) throws(SystemError) {
        var done = 0
        while done < count {
            done += try systemCall(.write, subject) {
                pwrite(rawValue, bytes + done, count - done, off_t(offset) + off_t(done))
            }
        }
    }

    /// Reads up to `count` bytes at `offset` into `buffer`, continuing after short reads
    /// and EINTR.
    ///
    /// - Returns: the bytes read; fewer than `count` only at the end of the file.
    /// The corresponding C function is `pread`.
    public func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64,
                     _ subject: String) throws(SystemError) -> Int {
        var done = 0
        while done < count {
            let read = try systemCall(.read, subject) { pread(rawValue, buffer + done, count - done, off_t(offset) + off_t(done)) }
            if read == 0 { break }
            done += read
        }
        return done
    }

    /// The file's size in bytes. The corresponding C function is `fstat`.
    public func size(_ subject: String) throws(SystemError) -> Int64 {
        Int64(try status(subject).st_size)
    }

    /// What the kernel knows of the open file: its type, mode, owner, size.
    /// The corresponding C function is `fstat`.
    public func status(_ subject: String) throws(SystemError) -> stat {
        var info = stat()
        try systemCall(.fstat, subject) { fstat(rawValue, &info) }
        return info
    }

    /// Cuts the file to `length` bytes. The corresponding C function is `ftruncate`.
    public func truncate(to length: Int64, _ subject: String) throws(SystemError) {
        try systemCall(.ftruncate, subject) { ftruncate(rawValue, off_t(length)) }
    }

    /// Takes a `flock` lock (`LOCK_EX`, `LOCK_SH`, with `LOCK_NB` not to wait).
    ///
    /// - Returns: `false` when `LOCK_NB` was given and another holds the lock.
    /// The corresponding C function is `flock`.
    @discardableResult
    public func lock(_ operation: Int32, _ subject: String) throws(SystemError) -> Bool {
        do {
            try systemCall(.flock, subject) { flock(rawValue, operation) }
            return true
        } catch where error.errno == EWOULDBLOCK && operation & LOCK_NB != 0 {
            return false
        }
    }
}

extension FileDescriptor {
    /// `AT_FDCWD`: relative names are looked up from the current directory.
    public static let currentDirectory = FileDescriptor(rawValue: AT_FDCWD)

    /// Opens `name` relative to this directory; `O_CLOEXEC` is always added.
    ///
    /// - Parameter subject: the path for messages.
    /// The corresponding C function is `openat`.
    public func open(_ name: String, _ flags: Int32, permissions: mode_t = 0o600, operation: Syscall = .open,
                     subject: String) throws(SystemError) -> FileDescriptor {
        FileDescriptor(rawValue: try systemCall(operation, subject) { openat(rawValue, name, flags | O_CLOEXEC, permissions) })
    }

    /// Opens `path`, relative to this directory, beneath it and never through a symbolic
    /// link, on the way or at the end; `O_CLOEXEC` is always added. What is opened is
    /// what a caller then checks (``status(_:)``) and uses: nothing can swap the file
    /// between the check and the use.
    ///
    /// - Parameter subject: the path for messages.
    /// - Throws: ``SystemError``: ELOOP for a link, EXDEV for a path that would leave the
    ///   directory, or the error of the open.
    /// The corresponding C function is `openat2` (`RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`),
    /// or `openat` with `O_NOFOLLOW` per component where the kernel lacks it.
    public func openBeneath(_ path: String, _ flags: Int32, subject: String) throws(SystemError) -> FileDescriptor {
        FileDescriptor(rawValue: try systemCall(.openat2, subject) { csystem_open_beneath(rawValue, path, flags) })
    }

    /// Removes `name` in this directory. The corresponding C function is `unlinkat`.
    public func remove(_ name: String, subject: String) throws(SystemError) {
        try systemCall(.unlinkat, subject) { unlinkat(rawValue, name, 0) }
    }

    /// Removes `name` in this directory if it can; for scratch files whose removal
    /// changes nothing the user relies on.
    public func removeQuietly(_ name: String) {
        _ = try? remove(name, subject: name)
    }

    /// What `name` in this directory is, without following a final link; `nil` when
    /// it cannot be seen. The corresponding C function is `fstatat`.
    public func linkStatus(_ name: String) -> stat? {
        var info = stat()
        guard (try? systemCall(.fstatat, name) { fstatat(rawValue, name, &info, AT_SYMLINK_NOFOLLOW) }) != nil else {
            return nil
        }
        return info
    }
}

extension FileDescriptor {
    /// Waits up to `milliseconds` for `events` on this descriptor, or until `wake` fires.
    ///
    /// - Returns: the events that occurred here, or 0 on a timeout or a fired `wake`
    ///   (the caller then checks why it should go on). An interrupting signal restarts
    ///   the wait, as ``systemCall(_:_:_:)`` does for every call.
    /// - Throws: ``SystemError`` for a failed `poll`. The corresponding C function is
    ///   `poll`.
    public func poll(_ events: Int16, orWake wake: WakeSignal?, milliseconds: Int32,
                     _ subject: String) throws(SystemError) -> Int16 {
        // On the stack, as this runs once a frame: without a wake signal its entry has
        // descriptor -1, which poll skips.
        var pollers = (pollfd(fd: rawValue, events: events, revents: 0),
                       pollfd(fd: wake?.descriptor.rawValue ?? -1, events: Int16(POLLIN), revents: 0))
        let ready = try systemCall(.poll, subject) {
            withUnsafeMutablePointer(to: &pollers) { pair in
                pair.withMemoryRebound(to: pollfd.self, capacity: 2) { Glibc.poll($0, 2, milliseconds) }
            }
        }
        return ready > 0 ? pollers.0.revents : 0
    }
}
