import Foundation
import Glibc
import Synchronization
import VidrecMedia
import VidrecSystem

/// A running recording's control socket, `<runtime>/ID.sock` (see
/// ``VidrecPaths/runtimeDirectory``): `vidrec snap` asks the recording for a photo
/// through it instead of failing on a busy camera.
///
/// One connection at a time on the thread `vidrec.control`: one JSON request line in,
/// one JSON reply line out. The socket has mode 0600 inside a 0700 folder, and a
/// connection from another user is closed unanswered (`SO_PEERCRED`), so only the user
/// who records can ask.
final class ControlServer: Sendable {
    /// How long a client may take to send its request, in seconds: vidrec's clients send
    /// it as soon as they connect, and a client that sends nothing holds up the others
    /// for no longer than this.
    static let requestTimeout = 2.0

    private let path: String
    private let socket: FileDescriptor
    private let stopping = Atomic<Bool>(false)
    /// Fired by ``close()`` to end the wait for a connection at once.
    private let wake: WakeSignal?
    private let thread: Mutex<NamedThread?> = Mutex(nil)

    /// Listens at `path` and answers each request with `handler` (on the server's thread).
    ///
    /// - Throws: ``SystemError`` when the socket cannot be made (ENAMETOOLONG for a
    ///   pending folder deeper than a socket path allows).
    init(path: String, handler: @escaping @Sendable (ControlRequest) -> ControlReply) throws(SystemError) {
        self.path = path
        socket = try FileDescriptor.listeningSocket(at: path)
        wake = try? WakeSignal()
        let started = NamedThread(name: "vidrec.control") { [self] in
            while !stopping.load(ordering: .relaxed) {
                guard let ready = try? socket.poll(Int16(POLLIN), orWake: wake, milliseconds: 100, path), ready != 0,
                      let connection = try? socket.accept(path)
                else { continue }
                connection.closeAfter {
                    guard (try? connection.peerUserID(path)) == geteuid() else { return }
                    let reply: ControlReply
                    do {
                        let line = try connection.readLine(within: ControlServer.requestTimeout, "a request on \(path)")
                        let request = try JSONDecoder().decode(ControlRequest.self, from: Data(line.utf8))
                        reply = handler(request)
                    } catch {
                        reply = ControlReply(error: "a request vidrec could not read (\(error))")
                    }
                    guard var data = try? JSONEncoder().encode(reply) else { return }
                    data.append(UInt8(ascii: "\n"))
                    _ = try? data.withUnsafeBytes { try connection.sendAll($0.baseAddress!, count: $0.count, "a reply on \(path)") }
                }
            }
        }
        thread.withLock { $0 = started }
    }

    /// Stops answering, waits for the request in hand, and removes the socket.
    func close() {
        stopping.store(true, ordering: .relaxed)
        wake?.fire()
        thread.withLock { $0?.join(); $0 = nil }
        socket.close()
        FileSystem.removeQuietly(path)
    }
}
