import Glibc
import VidrecSystem

/// A libcamera call that failed: what was asked, of which camera, why (libcamera's
/// words where it has them) and the errno.
public struct LibcameraError: Error, CustomStringConvertible, Sendable {
    public let operation: String
    public let camera: String
    public let reason: String
    public let code: Int32

    public init(_ operation: String, camera: String, reason: String, code: Int32) {
        self.operation = operation
        self.camera = camera
        self.reason = reason
        self.code = code
    }

    public var description: String {
        let errno = code == 0 || operation == "find" ? "" : " (\(operation): \(String(cString: strerror(code))))"
        return "camera libcamera:\(camera): \(reason)\(errno)"
    }
}

extension LibcameraError: ExitCoded {
    public var exitCode: ExitCode { code == EBUSY ? .temporaryFailure : .unavailable }
}
