import Glibc

/// Calls `body` until it stops failing with EINTR; returns its non-negative result or
/// throws a ``SystemError`` naming `operation` and `subject`.
///
/// This is the one seam through which vidrec's libc calls go (``FileDescriptor`` and
/// ``FileSystem`` are built on it). In debug and test builds, a test can make any call
/// fail by its name with ``SyscallFaults/injecting(_:_:)``; the call is then not made at
/// all. Release builds have no injection.
@discardableResult
public func systemCall<T: BinaryInteger>(
    _ operation: Syscall, _ subject: String = "", _ body: () -> T
) throws(SystemError) -> T {
    #if DEBUG
    if let injected = SyscallFaults.fault(for: operation) {
        throw SystemError(operation.rawValue, subject, errno: injected)
    }
    #endif
    while true {
        let result = body()
        if result >= 0 { return result }
        let code = Glibc.errno
        if code == EINTR { continue }
        throw SystemError(operation.rawValue, subject, errno: code)
    }
}

/// The ``systemCall(_:_:_:)`` seam for calls whose failures the caller sorts itself
/// (EAGAIN or ENODEV in a capture loop, EINVAL at the end of an enumeration): retries
/// EINTR alike, and returns 0 or the errno. Faults are injected alike.
public func systemCallErrno<T: BinaryInteger>(_ operation: Syscall, _ body: () -> T) -> Int32 {
    #if DEBUG
    if let injected = SyscallFaults.fault(for: operation) { return injected }
    #endif
    while true {
        if body() >= 0 { return 0 }
        let code = Glibc.errno
        if code != EINTR { return code }
    }
}

/// The ``systemCall(_:_:_:)`` seam for calls that return a negative errno instead of
/// setting `errno` (ALSA's `snd_*` functions): retries `-EINTR` alike, and returns the
/// call's result, which the caller sorts (`-EAGAIN`, `-EPIPE` and `-ENODEV` are outcomes
/// of a capture loop). An injected fault returns its errno negated; the call is not made.
@discardableResult
public func systemCallNegativeErrno<T: SignedInteger>(_ operation: Syscall, _ body: () -> T) -> T {
    #if DEBUG
    if let injected = SyscallFaults.fault(for: operation) { return T(-injected) }
    #endif
    while true {
        let result = body()
        if result != T(-EINTR) { return result }
    }
}

/// The ``systemCall(_:_:_:)`` seam for `mmap`-like calls, which return `MAP_FAILED` and
/// set errno.
public func systemCall(_ operation: Syscall, _ subject: String = "",
                       mapping body: () -> UnsafeMutableRawPointer?) throws(SystemError) -> UnsafeMutableRawPointer {
    #if DEBUG
    if let injected = SyscallFaults.fault(for: operation) {
        throw SystemError(operation.rawValue, subject, errno: injected)
    }
    #endif
    while true {
        if let start = body(), start != MAP_FAILED { return start }
        let code = Glibc.errno
        if code == EINTR { continue }
        throw SystemError(operation.rawValue, subject, errno: code)
    }
}
