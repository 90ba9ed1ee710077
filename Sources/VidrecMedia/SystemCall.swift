import Glibc

/// Calls `body` until it stops failing with EINTR; returns its non-negative result or
/// throws a ``SystemError`` naming `operation` and `subject`.
///
/// This is the one seam through which vidrec's libc calls go. A test can make any call
/// fail by its operation name with ``SyscallFaults/injecting(_:_:)``; the call is then
/// not made at all.
@discardableResult
public func systemCall<T: BinaryInteger>(
    _ operation: String, _ subject: String = "", _ body: () -> T
) throws(SystemError) -> T {
    if let injected = SyscallFaults.injected[operation] {
        throw SystemError(operation, subject, errno: injected)
    }
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        throw SystemError(operation, subject, errno: code)
    }
}

/// Writes all `count` bytes at `bytes` to `fd`, continuing after short writes and EINTR.
///
/// - Throws: ``SystemError`` naming `write` and `subject` (ENOSPC, EIO, …).
/// The corresponding C function is `write`.
public func writeAll(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ subject: String) throws(SystemError) {
    var done = 0
    while done < count {
        done += try systemCall("write", subject) { Glibc.write(fd, bytes + done, count - done) }
    }
}
