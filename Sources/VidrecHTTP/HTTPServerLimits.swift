/// What an ``HTTPServer`` allows its clients, so that no one of them, nor a flood from
/// elsewhere, can hold every connection or the memory the owner's requests need.
public struct HTTPServerLimits: Sendable, Equatable {
    /// Connections at once, in all; more are refused as they come.
    public var connections: UInt32
    /// Connections at once from one address: a flood from one machine leaves room for
    /// everyone else's.
    public var connectionsPerAddress: UInt32
    /// Seconds a connection may take to send a request's headers (from its start, or from
    /// the end of its last request), however slowly they come; then it is closed.
    public var headerSeconds: UInt32
    /// Seconds a connection may stay idle (nothing sent either way) before it is closed.
    public var idleSeconds: UInt32
    /// The largest body a request may have: a larger one is answered 413, before it is
    /// read when its `Content-Length` says so.
    public var bodyBytes: Int

    /// Creates limits; see the properties for the meaning of each argument. The
    /// defaults suit a small server for a few people: 256 connections, 32 from one
    /// address, headers within 10 s, 60 s idle, bodies up to 1 MiB.
    public init(connections: UInt32 = 256, connectionsPerAddress: UInt32 = 32, headerSeconds: UInt32 = 10,
                idleSeconds: UInt32 = 60, bodyBytes: Int = 1 << 20) {
        precondition(connections > 0 && connectionsPerAddress > 0 && headerSeconds > 0 && idleSeconds > 0 && bodyBytes >= 0)
        self.connections = connections
        self.connectionsPerAddress = connectionsPerAddress
        self.headerSeconds = headerSeconds
        self.idleSeconds = idleSeconds
        self.bodyBytes = bodyBytes
    }
}
