import Glibc
import VidrecMedia

/// An exclusive `flock` on a recording's lock file, held for as long as the recording
/// process lives; the kernel releases it when the process dies however it dies.
///
/// This is how vidrec tells a running recording from one whose process crashed,
/// without trusting a PID that may since belong to another program.
public final class RecordingLock: Sendable {
    /// The lock file.
    public let path: String
    private let fd: Int32

    /// Takes the lock on `path`, creating the file (mode 0600).
    ///
    /// - Returns: `nil` when another process holds it.
    /// - Throws: ``SystemError`` when the file cannot be opened or locked.
    public init?(acquiring path: String) throws {
        self.path = path
        let fd = try systemCall("open", path) { open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { return nil }
            throw SystemError("flock", path, errno: code)
        }
        self.fd = fd
    }

    /// Whether some process holds the lock on `path` now. A missing file is not held.
    /// The corresponding C function is `flock` with `LOCK_SH | LOCK_NB`.
    public static func isHeld(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 { return false }
        return errno == EWOULDBLOCK
    }

    deinit { close(fd) }
}
