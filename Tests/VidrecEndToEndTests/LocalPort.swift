import Foundation
import Glibc

/// Ports on 127.0.0.1 for the servers the tests start.
enum LocalPort {
    /// A port that nothing listens on now: the kernel's choice for a socket bound to
    /// port 0 (`SOCK_STREAM` for TCP servers, `SOCK_DGRAM` for SRT's UDP).
    static func free(_ type: Int32 = Int32(SOCK_STREAM.rawValue)) -> Int {
        let socket = Glibc.socket(AF_INET, type, 0)
        precondition(socket >= 0, "socket: \(String(cString: strerror(errno)))")
        defer { close(socket) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        precondition(bound, "bind: \(String(cString: strerror(errno)))")
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Whether a server listens on `port` of 127.0.0.1 now (TCP in state LISTEN, or a
    /// bound UDP socket), as the kernel lists it in /proc/net: no connection is made,
    /// since a server that takes one client (ffmpeg's RTSP listener) would take the probe.
    static func isListening(_ port: Int, udp: Bool = false) -> Bool {
        let table = (try? String(contentsOfFile: udp ? "/proc/net/udp" : "/proc/net/tcp", encoding: .utf8)) ?? ""
        let local = String(format: "0100007F:%04X", port)
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 3 && fields[1] == local && (udp || fields[3] == "0A")
        }
    }

    static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
