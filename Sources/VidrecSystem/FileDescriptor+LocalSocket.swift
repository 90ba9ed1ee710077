import CSystemShims
import Glibc

extension FileDescriptor {
    /// The longest socket path `sockaddr_un` holds, in bytes (without the NUL).
    public static let maximumSocketPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Creates a Unix stream socket listening at `path`, mode 0600 (a stale socket file
    /// there is replaced). The mode is set with `chmod` after `bind`, not through the
    /// process's umask, which other threads share; the folder it is in keeps others out
    /// meanwhile, and the server checks each peer (``peerUserID(_:)``).
    ///
    /// - Throws: ``SystemError``; ENAMETOOLONG for a path longer than
    ///   ``maximumSocketPathBytes``.
    /// The corresponding C functions are `socket`, `bind`, `chmod` and `listen`.
    public static func listeningSocket(at path: String) throws(SystemError) -> FileDescriptor {
        try socket(at: path) { socket, address, length throws(SystemError) in
            if let info = try? FileSystem.linkStatus(path), info.st_mode & S_IFMT == S_IFSOCK { FileSystem.removeQuietly(path) }
            try systemCall(.bind, path) { Glibc.bind(socket.rawValue, address, length) }
            do throws(SystemError) {
                try systemCall(.chmod, path) { Glibc.chmod(path, 0o600) }
                try systemCall(.listen, path) { Glibc.listen(socket.rawValue, 8) }
            } catch {
                FileSystem.removeQuietly(path)
                throw error
            }
        }
    }

    /// Connects a Unix stream socket to the one listening at `path`, and checks that the
    /// process listening there is the same user's: a socket someone else put in its place
    /// is refused (EPERM).
    ///
    /// - Throws: ``SystemError``: ENOENT or ECONNREFUSED when nothing listens there.
    /// The corresponding C functions are `socket`, `connect` and `getsockopt`.
    public static func connectedSocket(to path: String) throws(SystemError) -> FileDescriptor {
        let connected = try socket(at: path) { socket, address, length throws(SystemError) in
            try systemCall(.connect, path) { Glibc.connect(socket.rawValue, address, length) }
        }
        do throws(SystemError) {
            guard try connected.peerUserID(path) == geteuid() else { throw SystemError("connect", path, errno: EPERM) }
        } catch {
            connected.close()
            throw error
        }
        return connected
    }

    /// The user ID of the process at the other end of a connected Unix socket.
    /// The corresponding C function is `getsockopt` with `SO_PEERCRED`.
    public func peerUserID(_ subject: String) throws(SystemError) -> uid_t {
        var uid: UInt32 = 0
        try systemCall(.getsockopt, subject) { csystem_peer_uid(rawValue, &uid) }
        return uid_t(uid)
    }

    /// A new Unix stream socket, handed with the address of `path` to `body` (which binds
    /// or connects it); closed again when `body` throws.
    private static func socket(at path: String, _ body: (FileDescriptor, UnsafePointer<sockaddr>, socklen_t) throws(SystemError) -> Void)
        throws(SystemError) -> FileDescriptor {
        let (shortPath, folder) = try shortened(path)
        defer { folder?.close() }
        var address = try socketAddress(shortPath)
        let socket = FileDescriptor(rawValue: try systemCall(.socket, path) {
            Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        })
        do {
            try withUnsafePointer(to: &address) { pointer throws(SystemError) in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemError) in
                    try body(socket, address, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    /// Accepts one connection on a listening socket.
    /// The corresponding C functions are `accept` and `fcntl` (close-on-exec; `accept4`
    /// is hidden behind `_GNU_SOURCE`, and vidrec starts no programs while it listens).
    public func accept(_ subject: String) throws(SystemError) -> FileDescriptor {
        let connection = FileDescriptor(rawValue: try systemCall(.accept, subject) { Glibc.accept(rawValue, nil, nil) })
        _ = fcntl(connection.rawValue, F_SETFD, FD_CLOEXEC)
        return connection
    }

    /// Reads up to the first newline (not included), waiting at most `seconds` in all.
    ///
    /// - Throws: ``SystemError``: ETIMEDOUT when no whole line came in time, EMSGSIZE
    ///   past `limit` bytes, ECONNRESET when the peer closed first.
    public func readLine(within seconds: Double, limit: Int = 65536, _ subject: String) throws(SystemError) -> String {
        let deadline = MonotonicClock.now() + Int64(seconds * 1e9)
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 4096)
        defer { chunk.deallocate() }
        while true {
            let left = deadline - MonotonicClock.now()
            guard left > 0 else { throw SystemError("read", subject, errno: ETIMEDOUT) }
            guard try poll(Int16(POLLIN), orWake: nil, milliseconds: Int32(min(left / 1_000_000 + 1, 1000)), subject) != 0 else { continue }
            let count = try read(into: chunk.baseAddress!, count: chunk.count, subject)
            guard count > 0 else { throw SystemError("read", subject, errno: ECONNRESET) }
            if let end = chunk[0..<count].firstIndex(of: UInt8(ascii: "\n")) {
                bytes += chunk[0..<end]
                return String(decoding: bytes, as: UTF8.self)
            }
            bytes += chunk[0..<count]
            guard bytes.count <= limit else { throw SystemError("read", subject, errno: EMSGSIZE) }
        }
    }

    /// `path` short enough for `sockaddr_un`: itself, or, when it is longer, its name
    /// in `/proc/self/fd/N/` through a descriptor of its folder (returned; close it
    /// after the bind or connect).
    private static func shortened(_ path: String) throws(SystemError) -> (String, FileDescriptor?) {
        guard path.utf8.count > maximumSocketPathBytes else { return (path, nil) }
        let url = path.split(separator: "/", omittingEmptySubsequences: false)
        let folder = try FileDescriptor.open(url.dropLast().joined(separator: "/"), O_RDONLY | O_DIRECTORY)
        return ("/proc/self/fd/\(folder.rawValue)/\(url.last!)", folder)
    }

    private static func socketAddress(_ path: String) throws(SystemError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumSocketPathBytes else { throw SystemError("bind", path, errno: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        return address
    }
}

extension FileDescriptor {
    /// Sends all `count` bytes on a connected socket, without SIGPIPE when the peer has
    /// gone (that is EPIPE here, not the end of the process).
    /// The corresponding C function is `send` with `MSG_NOSIGNAL`.
    public func sendAll(_ bytes: UnsafeRawPointer, count: Int, _ subject: String) throws(SystemError) {
        var done = 0
        while done < count {
            done += try systemCall(.send, subject) { Glibc.send(rawValue, bytes + done, count - done, Int32(MSG_NOSIGNAL)) }
        }
    }
}
