import Glibc

/// A failed system call, with what was being done and to what.
///
/// Renders as `<operation> on <subject>: <strerror> (errno N)`, for example
/// `VIDIOC_S_FMT on /dev/video0: Invalid argument (errno 22)`.
public struct SystemError: Error, Sendable, CustomStringConvertible, Equatable {
    /// The call or step that failed, such as `open` or `VIDIOC_S_FMT`.
    public let operation: String
    /// The path or device the call was made on; empty when there is none.
    public let subject: String
    /// The `errno` value the call left.
    public let errno: Int32

    /// Creates an error from an explicit errno value.
    public init(_ operation: String, _ subject: String = "", errno: Int32) {
        self.operation = operation
        self.subject = subject
        self.errno = errno
    }

    /// Creates an error from the calling thread's current `errno`.
    public static func current(_ operation: String, _ subject: String = "") -> SystemError {
        SystemError(operation, subject, errno: Glibc.errno)
    }

    /// The C library's text for `errno`. The corresponding C function is `strerror_r`.
    public var reason: String { SystemError.describe(errno) }

    public var description: String {
        let target = subject.isEmpty ? "" : " on \(subject)"
        return "\(operation)\(target): \(reason) (errno \(errno))"
    }

    /// `strerror` for any errno value, thread-safely.
    public static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        // Swift sees the XSI strerror_r, which fills `buffer` and returns 0.
        guard strerror_r(code, &buffer, buffer.count) == 0 else { return "error \(code)" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}

extension SystemError: ExitCoded {
    /// By errno: a full or failing disk, a place that cannot be written, a device that
    /// is missing or busy; anything else a plain failure.
    public var exitCode: ExitCode {
        switch errno {
        case ENOSPC, EIO, EDQUOT, EFBIG: .ioError
        case EACCES, EPERM, EROFS, ENOTDIR, EEXIST: .cannotCreate
        case ENODEV, ENXIO, EBUSY, ENOENT: .unavailable
        default: .failure
        }
    }
}
