import CMosquitto
import Glibc
import VidrecSystem

/// An MQTT connection that could not be made or kept, with the broker's address and
/// libmosquitto's (or the C library's) reason.
public struct MQTTError: Error, Sendable, CustomStringConvertible {
    /// What was being done, such as `mosquitto_connect`.
    public let operation: String
    /// The broker, as `--mqtt` gave it.
    public let broker: String
    public let reason: String
    /// What the user can do about it.
    public let fix: String

    public var description: String { "\(operation) to \(broker): \(reason); \(fix)" }

    /// The text for a libmosquitto result code; for `MOSQ_ERR_ERRNO`, the C library's
    /// for `errno`. The corresponding C function is `mosquitto_strerror`.
    static func text(_ code: Int32) -> String {
        if code == Int32(MOSQ_ERR_ERRNO.rawValue) { return SystemError.describe(errno) }
        return String(cString: mosquitto_strerror(code))
    }
}

extension MQTTError: ExitCoded {
    /// A broker that cannot be reached or refused the connection is a service that is
    /// not there.
    public var exitCode: ExitCode { .unavailable }
}
