/// The body of a response that has no end known in advance (the viewfinder's
/// `multipart/x-mixed-replace` pictures): read on the connection's own thread, where it
/// may block until it has something to send.
public protocol HTTPStream: AnyObject, Sendable {
    /// Copies the next bytes of the body into `buffer`, waiting for them if need be.
    ///
    /// - Returns: how many bytes were copied (at least one), or `nil` at the end of the
    ///   body (the client is then sent the end of the response).
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int?

    /// Called once the client is gone or the response has ended, from any thread: a
    /// ``read(into:)`` that waits must return then.
    func close()
}
