import Glibc

/// A TCP server that takes connections (the kernel completes the handshake) and never
/// reads or answers: a hung media server.
final class SilentServer {
    let port: Int
    private let socket: Int32

    init() {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(socket >= 0, "socket: \(String(cString: strerror(errno)))")
        var address = LocalPort.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && listen(socket, 8) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        precondition(listening, "listen: \(String(cString: strerror(errno)))")
        self.socket = socket
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(socket) }
}
