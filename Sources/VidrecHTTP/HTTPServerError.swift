import Glibc
import VidrecSystem

/// Why ``HTTPServer`` could not start listening.
public struct HTTPServerError: Error, CustomStringConvertible, Sendable {
    /// The address and port asked for.
    public let address: String
    /// The port asked for.
    public let port: UInt16
    /// The C library's reason (errno).
    public let code: Int32

    /// Creates an error; see the properties for the meaning of each argument.
    public init(address: String, port: UInt16, code: Int32) {
        self.address = address
        self.port = port
        self.code = code
    }

    public var description: String {
        let place = address.contains(":") ? "[\(address)]:\(port)" : "\(address):\(port)"
        let reason = String(cString: strerror(code))
        switch code {
        case EADDRINUSE: return "cannot listen on \(place): \(reason); another program uses the port: choose another with --listen"
        case EADDRNOTAVAIL: return "cannot listen on \(place): \(reason); the address is not one of this machine's: use 127.0.0.1, 0.0.0.0 or an address `ip addr` shows"
        case EACCES: return "cannot listen on \(place): \(reason); ports below 1024 need root: use a port from 1024 up"
        case EINVAL: return "cannot listen on \(place): \(reason); give a numeric IPv4 or IPv6 address"
        default: return "cannot listen on \(place): \(reason)"
        }
    }
}

extension HTTPServerError: ExitCoded {
    /// 69 for a port or address that cannot be had (another program holds the port, the
    /// address is not this machine's, a port below 1024 without root); 1 otherwise.
    public var exitCode: ExitCode {
        switch code {
        case EADDRINUSE, EADDRNOTAVAIL, EACCES: .unavailable
        default: .failure
        }
    }
}
