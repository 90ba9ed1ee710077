import CFFmpeg
import Glibc
import VidrecMedia
import VidrecSystem

/// A failed FFmpeg call: the call, what it was applied to, and FFmpeg's text for the code.
///
/// Renders as `avcodec_open2 on libx264: Invalid argument (AVERROR -22)`.
public struct FFmpegError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it is, decided where it is thrown.
    public enum Kind: Sendable, Equatable {
        /// The preset asks for what this FFmpeg cannot do (an encoder, an option, a
        /// pixel format or a codec the container cannot hold): a data error, fixed in
        /// the preset.
        case unsupportedSettings
        /// Anything else: a failure while running.
        case runtime
    }

    /// What kind of failure it is.
    public let kind: Kind
    /// The FFmpeg function or step that failed.
    public let operation: String
    /// The file, codec or stream it was applied to.
    public let subject: String
    /// The negative AVERROR code, or 0 for failures that carry no code (a NULL return).
    public let code: Int32
    /// Extra advice shown after the error text (how to fix it), or empty.
    public let hint: String

    /// Creates an error.
    public init(_ operation: String, _ subject: String, code: Int32, hint: String = "", kind: Kind = .runtime) {
        self.kind = kind
        self.operation = operation
        self.subject = subject
        self.code = code
        self.hint = hint
    }

    /// FFmpeg's text for ``code``. The corresponding C function is `av_strerror`.
    public var reason: String {
        guard code != 0 else { return "failed" }
        var buffer = [CChar](repeating: 0, count: 128)
        av_strerror(code, &buffer, buffer.count)
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The POSIX errno behind ``code``, when it is one (`AVERROR(e)` is `-e`).
    public var posixErrno: Int32? { code < 0 && code > -4096 ? -code : nil }

    public var description: String {
        let base = "\(operation) on \(subject): \(reason)" + (code != 0 ? " (AVERROR \(code))" : "")
        return hint.isEmpty ? base : "\(base); \(hint)"
    }
}

/// Throws an ``FFmpegError`` of `kind` when `code` is negative; returns it otherwise.
@discardableResult
func check(_ code: Int32, _ operation: String, _ subject: String,
           kind: FFmpegError.Kind = .runtime) throws(FFmpegError) -> Int32 {
    if code < 0 { throw FFmpegError(operation, subject, code: code, kind: kind) }
    return code
}

/// Unwraps a pointer returned by an allocating FFmpeg call, or throws ENOMEM.
func allocated<T>(_ pointer: T?, _ operation: String, _ subject: String) throws(FFmpegError) -> T {
    guard let pointer else { throw FFmpegError(operation, subject, code: cffmpeg_averror(ENOMEM)) }
    return pointer
}

extension FFmpegError: ExitCoded {
    /// A full or failing disk is an I/O error, a setting the encoder refused a data
    /// error (the preset's), anything else a plain failure.
    public var exitCode: ExitCode {
        if let posix = posixErrno, [ENOSPC, EIO, EDQUOT, EFBIG].contains(posix) { return .ioError }
        return kind == .unsupportedSettings ? .dataError : .failure
    }
}
