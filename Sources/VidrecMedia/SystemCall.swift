import Glibc

/// Calls `body` until it stops failing with EINTR; returns its non-negative result or
/// throws a ``SystemError`` naming `operation` and `subject`.
///
/// This is the one seam through which vidrec's libc calls go (``FileDescriptor`` and
/// ``FileSystem`` are built on it). A test can make any call fail by its operation name
/// with ``SyscallFaults/injecting(_:_:)``; the call is then not made at all.
@discardableResult
public func systemCall<T: BinaryInteger>(
    _ operation: String, _ subject: String = "", _ body: () -> T
) throws(SystemError) -> T {
    if let injected = SyscallFaults.fault(for: operation) {
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
