import CHTTPServer
import Foundation
import Glibc
import Synchronization
import VidrecSystem

/// An HTTP server on GNU libmicrohttpd: a thread for each connection (so that a stream
/// may wait for its next picture), every request handed whole, body included, to one
/// handler, which answers with an ``HTTPResponse``; TLS when given a certificate.
///
/// As soon as a request's headers are in, before its body is read: a `Host` the
/// server's ``HostAllowList`` does not permit is answered `421 Misdirected Request`; the
/// admission check (a token, say) may answer it at once; and a body longer than the
/// limits allow is answered 413. Connections are bounded in all and per address, and one that
/// takes too long over its headers is closed (``HTTPServerLimits``). Every response
/// carries ``commonHeaders``.
///
/// Owns its daemon (the corresponding C functions are `MHD_start_daemon` and
/// `MHD_stop_daemon`): ``stop()``, or the end of the server's life, closes the streams
/// being sent, then every connection, and waits for their threads.
public final class HTTPServer: Sendable {
    /// The handler: called on the connection's thread, for one request at a time per
    /// connection and for several connections at once.
    public typealias Handler = @Sendable (HTTPRequest) -> HTTPResponse

    /// Looks at a request whose headers are in (its body not yet read, and empty here):
    /// an answer refuses it at once, `nil` lets it go on to the handler.
    public typealias Admission = @Sendable (HTTPRequest) -> HTTPResponse?
    /// The header fields every response carries: no type sniffing (a file is only ever
    /// what its `Content-Type` says), and no address of this server in the `Referer`
    /// of what its pages link to.
    public static let commonHeaders: [(name: String, value: String)] = [
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
    ]

    /// The address listened on.
    public let address: String
    /// The port listened on (the one chosen, when 0 was asked for).
    public let port: UInt16
    /// Whether it speaks TLS.
    public let isSecure: Bool
    private let dispatcher: Dispatcher
    /// The C server's address (0 once stopped).
    private let server: Mutex<UInt>

    /// Starts listening on `address` (numeric IPv4 or IPv6) at `port` (0: a free one).
    ///
    /// - Parameters:
    ///   - tls: a certificate and its key, both PEM, for HTTPS.
    ///   - allowedHosts: the `Host` names answered (by default those of `address`:
    ///     ``HostAllowList/init(listenAddress:extraNames:)``).
    ///   - limits: connections, header time and body size allowed.
    ///   - admission: looks at each request when its headers are in (``Admission``).
    /// - Throws: ``HTTPServerError`` (the port is taken, the address is not this
    ///   machine's, …).
    public init(address: String, port: UInt16, tls: (certificate: String, key: String)? = nil,
                allowedHosts: HostAllowList? = nil, limits: HTTPServerLimits = HTTPServerLimits(),
                admission: Admission? = nil, handler: @escaping Handler) throws(HTTPServerError) {
        self.address = address
        isSecure = tls != nil
        dispatcher = Dispatcher(handler, hosts: allowedHosts ?? HostAllowList(listenAddress: address), limits: limits,
                                admission: admission)
        // The daemon calls back with the dispatcher, which outlives it (stop() ends the
        // daemon before the dispatcher can go).
        let context = Unmanaged.passUnretained(dispatcher).toOpaque()
        let cLimits = chttp_limits(connections: limits.connections, connections_per_address: limits.connectionsPerAddress,
                                   header_seconds: limits.headerSeconds, idle_seconds: limits.idleSeconds)
        let started: OpaquePointer? = withOptionalCString(tls?.certificate) { certificate in
            withOptionalCString(tls?.key) { key in
                chttp_start(address, port, accessCallback, completedCallback, context, certificate, key, cLimits)
            }
        }
        guard let started else { throw HTTPServerError(address: address, port: port, code: errno) }
        server = Mutex(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(started))))
        self.port = chttp_port(started)
    }

    /// Stops listening: closes the streams being sent (so that their readers return),
    /// then every connection, and waits for their threads. Safe to call more than once.
    /// The corresponding C functions are `chttp_stop` (`MHD_stop_daemon`) and `chttp_free`.
    public func stop() {
        let address = server.withLock { value -> UInt in
            defer { value = 0 }
            return value
        }
        guard let running = OpaquePointer(bitPattern: address) else { return }
        dispatcher.closeStreams()
        chttp_stop(running)
        chttp_free(running)
    }

    deinit { stop() }
}

/// `body` with `text` as a C string, or with `NULL` for `nil`.
private func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let text else { return body(nil) }
    return text.withCString { body($0) }
}

/// What the daemon's callbacks reach: the handler, the requests being read and the
/// streams being sent.
private final class Dispatcher: Sendable {
    let handler: HTTPServer.Handler
    let hosts: HostAllowList
    let limits: HTTPServerLimits
    let admission: HTTPServer.Admission?
    /// Streams being sent, by their box's address, to close at stop().
    private let streams = Mutex<[UInt: any HTTPStream]>([:])

    init(_ handler: @escaping HTTPServer.Handler, hosts: HostAllowList, limits: HTTPServerLimits, admission: HTTPServer.Admission?) {
        self.handler = handler
        self.hosts = hosts
        self.limits = limits
        self.admission = admission
    }

    /// The answer to a request whose headers are in, before its body is read: a `Host`
    /// this server does not answer for, what the admission check answers, or a body
    /// said to be too large.
    func refusal(_ request: HTTPRequest) -> HTTPResponse? {
        let host = request.header("host")
        guard hosts.permits(host) else {
            return .error("this server does not answer for the host \(host.map { "'\($0)'" } ?? "(none given)"); "
                          + "open it by the address 'vidrec serve' printed, or allow the name with --allow-host", status: 421)
        }
        if let refusal = admission?(request) { return refusal }
        if let length = request.header("content-length"), let bytes = Int(length), bytes > limits.bodyBytes {
            return tooLarge
        }
        return nil
    }

    /// The answer to a body larger than the limit.
    var tooLarge: HTTPResponse {
        .error("the request's body is larger than \(limits.bodyBytes) bytes", status: 413)
    }

    func opened(_ stream: any HTTPStream, at key: UnsafeMutableRawPointer) {
        let address = UInt(bitPattern: key)
        streams.withLock { $0[address] = stream }
    }

    func closed(at key: UnsafeMutableRawPointer) {
        let address = UInt(bitPattern: key)
        _ = streams.withLock { $0.removeValue(forKey: address) }
    }

    func closeStreams() {
        for stream in streams.withLock({ Array($0.values) }) { stream.close() }
    }
}

/// A request being read: its body so far, kept in the connection's request context
/// between the daemon's calls.
private final class PendingRequest {
    var body = Data()
    var isTooLarge = false
}

/// A stream being sent, with the dispatcher that tracks it.
private final class StreamBox {
    let stream: any HTTPStream
    let dispatcher: Dispatcher
    init(_ stream: any HTTPStream, _ dispatcher: Dispatcher) {
        self.stream = stream
        self.dispatcher = dispatcher
    }
}

/// The daemon's access handler: called once when the headers have come (the request
/// context is made), then for each piece of the body, then once more to answer.
private let accessCallback: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, requestContext in
    guard let cls, let connection, let uploadSize, let requestContext else { return MHD_Result.NO }
    let dispatcher = Unmanaged<Dispatcher>.fromOpaque(cls).takeUnretainedValue()
    guard let saved = requestContext.pointee else {
        requestContext.pointee = Unmanaged.passRetained(PendingRequest()).toOpaque()
        // The headers are in: a request refused now is answered before its body is read
        // (the daemon closes the connection after it).
        let headers = HTTPRequest(method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/",
                                  query: values(connection, MHD_ValueKind.GET_ARGUMENT_KIND),
                                  headers: values(connection, MHD_ValueKind.HEADER_KIND))
        if let refusal = dispatcher.refusal(headers) { return send(refusal, on: connection, dispatcher) }
        return MHD_Result.YES
    }
    let pending = Unmanaged<PendingRequest>.fromOpaque(saved).takeUnretainedValue()
    if uploadSize.pointee > 0 {
        if pending.body.count + uploadSize.pointee > dispatcher.limits.bodyBytes {
            pending.isTooLarge = true
        } else if let upload {
            pending.body.append(UnsafeRawPointer(upload).assumingMemoryBound(to: UInt8.self), count: uploadSize.pointee)
        }
        uploadSize.pointee = 0
        return MHD_Result.YES
    }
    let request = HTTPRequest(method: method.map { String(cString: $0) } ?? "GET",
                              path: url.map { String(cString: $0) } ?? "/",
                              query: values(connection, MHD_ValueKind.GET_ARGUMENT_KIND),
                              headers: values(connection, MHD_ValueKind.HEADER_KIND),
                              body: pending.body)
    let response = pending.isTooLarge ? dispatcher.tooLarge : dispatcher.handler(request)
    return send(response, on: connection, dispatcher)
}

/// The daemon's completion callback: frees the request's context.
private let completedCallback: MHD_RequestCompletedCallback = { _, _, requestContext, _ in
    guard let requestContext, let saved = requestContext.pointee else { return }
    Unmanaged<PendingRequest>.fromOpaque(saved).release()
    requestContext.pointee = nil
}

/// The values of `kind` (headers, query arguments) the client sent. The corresponding C
/// function is `MHD_get_connection_values`.
private func values(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [String: String] {
    final class Collected { var values: [String: String] = [:] }
    let collected = Collected()
    _ = MHD_get_connection_values(connection, kind, { cls, _, key, value in
        guard let cls, let key else { return MHD_Result.YES }
        let collected = Unmanaged<Collected>.fromOpaque(cls).takeUnretainedValue()
        let name = String(cString: key)
        if collected.values[name] == nil { collected.values[name] = value.map { String(cString: $0) } ?? "" }
        return MHD_Result.YES
    }, Unmanaged.passUnretained(collected).toOpaque())
    return collected.values
}

/// Makes the daemon's response for `response` and queues it. The corresponding C
/// functions are `MHD_create_response_*`, `MHD_add_response_header`,
/// `MHD_queue_response` and `MHD_destroy_response`.
private func send(_ response: HTTPResponse, on connection: OpaquePointer, _ dispatcher: Dispatcher) -> MHD_Result {
    var made: OpaquePointer?
    switch response.body {
    case let .bytes(data):
        made = data.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
    case let .file(file, offset, count):
        guard let descriptor = file.take() else { return MHD_Result.NO }
        // The daemon closes the descriptor with the response.
        made = MHD_create_response_from_fd_at_offset64(UInt64(count), descriptor.rawValue, UInt64(offset))
        if made == nil { descriptor.close() }
    case let .stream(stream):
        let box = Unmanaged.passRetained(StreamBox(stream, dispatcher)).toOpaque()
        dispatcher.opened(stream, at: box)
        made = MHD_create_response_from_callback(chttp_size_unknown(), 32 * 1024, { cls, _, buffer, maximum in
            guard let cls, let buffer else { return chttp_reader_end_with_error() }
            let box = Unmanaged<StreamBox>.fromOpaque(cls).takeUnretainedValue()
            guard let count = box.stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: maximum)) else {
                return chttp_reader_end_of_stream()
            }
            return count
        }, box, { cls in
            guard let cls else { return }
            let box = Unmanaged<StreamBox>.fromOpaque(cls)
            box.takeUnretainedValue().dispatcher.closed(at: cls)
            box.takeUnretainedValue().stream.close()
            box.release()
        })
        if made == nil {
            dispatcher.closed(at: box)
            stream.close()
            Unmanaged<StreamBox>.fromOpaque(box).release()
        }
    }
    guard let made else { return MHD_Result.NO }
    defer { MHD_destroy_response(made) }
    for (name, value) in HTTPServer.commonHeaders + response.headers {
        _ = MHD_add_response_header(made, name, value)
    }
    return MHD_queue_response(connection, UInt32(response.status), made)
}
