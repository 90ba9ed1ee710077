import Glibc
import VidrecMedia
import VidrecSystem

/// An exclusive `flock` on a recording's lock file, held for as long as the recording
/// process lives; the kernel releases it when the process dies however it dies.
///
/// This is how vidrec tells a running recording from one whose process crashed,
/// without trusting a PID that may since belong to another program.
public final class RecordingLock: Sendable {
    /// The lock file.
    public let path: String
    private let fd: FileDescriptor

    /// Takes the lock on `path`, creating the file (mode 0600).
    ///
    /// - Returns: `nil` when another process holds it.
    /// - Throws: ``SystemError`` when the file cannot be opened or locked.
    public init?(acquiring path: String) throws {
        self.path = path
        let fd = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_NOFOLLOW)
        let locked: Bool
        do { locked = try fd.lock(LOCK_EX | LOCK_NB, path) } catch {
            fd.close()
            throw error
        }
        guard locked else {
            fd.close()
            return nil
        }
        self.fd = fd
    }

    /// Whether some process holds the lock on `path` now. A missing file is not held.
    /// The corresponding C function is `flock` with `LOCK_SH | LOCK_NB`.
    public static func isHeld(_ path: String) -> Bool {
        guard let fd = try? FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW) else { return false }
        return fd.closeAfter { (try? fd.lock(LOCK_SH | LOCK_NB, path)) == false }
    }

    deinit { fd.close() }
}
