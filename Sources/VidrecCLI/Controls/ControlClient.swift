import Foundation
import VidrecMedia
import VidrecSystem

/// Asks a running recording over its control socket (``ControlServer``).
enum ControlClient {
    /// Sends `request` to the socket at `path` and waits up to `timeout` seconds for the
    /// reply.
    ///
    /// - Throws: ``SystemError`` when nothing listens there or no reply comes in time.
    static func send(_ request: ControlRequest, to path: String, timeout: Double) throws -> ControlReply {
        let socket = try FileDescriptor.connectedSocket(to: path)
        return try socket.closeAfter {
            var data = try JSONEncoder().encode(request)
            data.append(UInt8(ascii: "\n"))
            try data.withUnsafeBytes { try socket.sendAll($0.baseAddress!, count: $0.count, path) }
            let line = try socket.readLine(within: timeout, "the reply on \(path)")
            return try JSONDecoder().decode(ControlReply.self, from: Data(line.utf8))
        }
    }
}
