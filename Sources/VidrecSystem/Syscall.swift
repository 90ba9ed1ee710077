/// The libc calls that go through the ``systemCall(_:_:_:)`` seam, by name: what a
/// ``SystemError`` says failed, and what a test makes fail (``SyscallFaults``). A name
/// mistyped in a test or a call is a compile error, not a fault that never fires.
public enum Syscall: String, Sendable, CaseIterable {
    case accept
    case access
    case bind
    case chmod
    case connect
    case create  // `open` with `O_CREAT`, named apart for messages and faults
    case eventfd
    case flock
    case fstat
    case fstatat
    case fsync
    case ftruncate
    case getsockopt
    case ioctl  // V4L2's, named by their request (VIDIOC_S_FMT) in errors
    case kill
    case linkat
    case listen
    case lstat
    case mkdir
    case mmap
    case open
    case poll
    case read
    case rename
    case renameat
    case renameat2
    case send
    case socket
    case stat
    case statvfs
    case unlink
    case unlinkat
    case write
}
