import CMosquitto
import Dispatch
import Foundation
import Synchronization
import VidrecSystem

/// One connection to an MQTT broker through libmosquitto: publishes, and hands the
/// messages of its subscriptions to a handler.
///
/// The network loop runs on a named thread (`vidrec.mqtt`, `mosquitto_loop_forever`),
/// which also reconnects, 1 s after a loss and then up to every 30 s, and subscribes
/// again on each connection; the handlers run on that thread. The broker publishes the
/// will (retained) when the connection is lost without a goodbye.
///
/// `@unchecked Sendable`: libmosquitto is built thread-safe in Debian (its publish and
/// disconnect may be called from any thread while the loop runs); the handle is only
/// destroyed in `deinit`, after the loop's thread has been joined.
public final class MQTTClient: @unchecked Sendable {
    /// A message that arrived on a subscribed topic.
    public struct Message: Sendable {
        public let topic: String
        public let payload: String
    }

    /// What the connection tells its owner, on the loop's thread.
    public struct Handlers: Sendable {
        /// Each time the connection is made (again): publish retained state here.
        public var connected: @Sendable () -> Void
        /// A message on a subscribed topic.
        public var message: @Sendable (Message) -> Void
        /// A line for the log: the connection lost, or made again.
        public var log: @Sendable (String) -> Void

        public init(connected: @escaping @Sendable () -> Void, message: @escaping @Sendable (Message) -> Void,
                    log: @escaping @Sendable (String) -> Void) {
            self.connected = connected
            self.message = message
            self.log = log
        }
    }

    /// The broker, for messages.
    public let address: MQTTAddress
    private let handle: OpaquePointer
    private let relay: Relay
    private var thread: NamedThread?

    /// The callbacks' side: what libmosquitto calls back into, through its `obj`
    /// pointer (unretained: the client holds it for as long as the handle lives).
    final class Relay: Sendable {
        let handlers: Handlers
        let subscriptions: [String]
        /// The first connection's answer (CONNACK's code), once it came.
        let firstAnswer = Mutex<Int32?>(nil)
        let answered = DispatchSemaphore(value: 0)
        /// Whether the connection has been up, and whether it is now; why it last ended.
        let state = Mutex((wasUp: false, isUp: false, stopping: false, lastFailure: Int32?.none))
        /// Messages published and not yet acknowledged by the broker (QoS 1's PUBACK).
        let unacknowledged = Mutex(0)
        /// Signalled as the last unacknowledged message is acknowledged.
        let drained = DispatchSemaphore(value: 0)
        init(handlers: Handlers, subscriptions: [String]) {
            self.handlers = handlers
            self.subscriptions = subscriptions
        }
    }

    /// Connects to the broker at `address` and waits up to `timeout` seconds for its
    /// answer.
    ///
    /// - Parameters:
    ///   - clientID: the client's name at the broker (one connection per name).
    ///   - will: a retained message the broker publishes when the connection is lost.
    ///   - subscriptions: topic filters, subscribed at QoS 1 on every connection.
    /// - Throws: ``MQTTError`` when the broker cannot be reached, refuses (a wrong
    ///   password, an unknown user), or does not answer.
    ///
    /// The corresponding C functions are `mosquitto_new`, `mosquitto_connect` and
    /// `mosquitto_loop_forever`.
    public init(address: MQTTAddress, clientID: String, credentials: MQTTCredentials?,
                will: (topic: String, payload: String)?, subscriptions: [String], handlers: Handlers,
                timeout: Double = 10) throws(MQTTError) {
        _ = MQTTClient.library
        self.address = address
        relay = Relay(handlers: handlers, subscriptions: subscriptions)
        guard let handle = mosquitto_new(clientID, true, Unmanaged.passUnretained(relay).toOpaque()) else {
            throw MQTTError(operation: "mosquitto_new", broker: "\(address)", reason: SystemError.describe(errno), fix: "the machine is out of memory")
        }
        self.handle = handle
        // The loop runs on a thread of ours while others publish: libmosquitto must
        // know, or a publish writes to the socket from the caller's thread beside it.
        try check(mosquitto_threaded_set(handle, true), "mosquitto_threaded_set")
        try configure(credentials: credentials, will: will)
        MQTTClient.setCallbacks(handle)
        let connected = mosquitto_connect(handle, address.host, address.port, 30)
        guard connected == MOSQ_ERR_SUCCESS.rawValue else {
            throw MQTTError(operation: "connecting", broker: "\(address)", reason: MQTTError.text(connected), fix: Self.fix(for: connected))
        }
        let loop = SendableHandle(pointer: handle)
        thread = NamedThread(name: "vidrec.mqtt") { _ = mosquitto_loop_forever(loop.pointer, 1000, 1) }
        guard relay.answered.wait(timeout: .now() + timeout) == .success else {
            // The loop may have tried and failed (a TLS handshake is finished there).
            let failure = relay.state.withLock { $0.lastFailure }
            stop()
            throw MQTTError(operation: "connecting", broker: "\(address)",
                            reason: failure.map(MQTTError.text) ?? "no answer in \(Int(timeout)) s",
                            fix: address.isSecure ? Self.fix(for: MOSQ_ERR_TLS.rawValue)
                                : failure.map(Self.fix) ?? "check that --mqtt names an MQTT broker (mqtts:// for one that speaks TLS)")
        }
        if let refused = relay.firstAnswer.withLock({ $0 }), refused != 0 {
            stop()
            throw MQTTError(operation: "connecting", broker: "\(address)", reason: String(cString: mosquitto_connack_string(refused)),
                            fix: "check the user name and password in --mqtt-credentials, and the broker's ACL")
        }
    }

    /// What to do about a connection that failed with `code`.
    private static func fix(for code: Int32) -> String {
        code == MOSQ_ERR_TLS.rawValue
            ? "check that the broker's certificate names this host and comes from an authority the system trusts, or name yours with ca= in --mqtt-credentials"
            : "check the host and port in --mqtt, and that the broker runs"
    }

    /// The handle, to hand to the loop's thread (see the class's note).
    private struct SendableHandle: @unchecked Sendable { let pointer: OpaquePointer }

    /// `mosquitto_lib_init`, once per process.
    private static let library: Void = { mosquitto_lib_init() }()

    private func configure(credentials: MQTTCredentials?, will: (topic: String, payload: String)?) throws(MQTTError) {
        if let username = credentials?.username {
            try check(mosquitto_username_pw_set(handle, username, credentials?.password), "mosquitto_username_pw_set")
        }
        if address.isSecure {
            let ca = credentials?.certificateAuthority
            try check(mosquitto_tls_set(handle, ca, ca == nil ? "/etc/ssl/certs" : nil, nil, nil, nil), "mosquitto_tls_set",
                      fix: "give a readable PEM file as ca= in --mqtt-credentials")
        }
        if let will {
            try check(mosquitto_will_set(handle, will.topic, Int32(will.payload.utf8.count), will.payload, 1, true), "mosquitto_will_set")
        }
        try check(mosquitto_reconnect_delay_set(handle, 1, 30, true), "mosquitto_reconnect_delay_set")
    }

    private func check(_ code: Int32, _ operation: String, fix: String = "check --mqtt") throws(MQTTError) {
        guard code != MOSQ_ERR_SUCCESS.rawValue else { return }
        throw MQTTError(operation: operation, broker: "\(address)", reason: MQTTError.text(code), fix: fix)
    }

    /// The callbacks, which find their ``Relay`` through `obj`.
    private static func setCallbacks(_ handle: OpaquePointer) {
        mosquitto_connect_callback_set(handle) { handle, object, code in
            guard let handle, let object else { return }
            Unmanaged<Relay>.fromOpaque(object).takeUnretainedValue().connected(handle, code: code)
        }
        mosquitto_disconnect_callback_set(handle) { _, object, code in
            guard let object else { return }
            Unmanaged<Relay>.fromOpaque(object).takeUnretainedValue().disconnected(code: code)
        }
        mosquitto_publish_callback_set(handle) { _, object, _ in
            guard let object else { return }
            let relay = Unmanaged<Relay>.fromOpaque(object).takeUnretainedValue()
            let left = relay.unacknowledged.withLock { count -> Int in
                count = max(0, count - 1)
                return count
            }
            if left == 0 { relay.drained.signal() }
        }
        mosquitto_message_callback_set(handle) { _, object, message in
            guard let object, let message = message?.pointee, let topic = message.topic else { return }
            let bytes = message.payload.map { UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen)) }
            let payload = bytes.map { String(decoding: $0, as: UTF8.self) } ?? ""
            Unmanaged<Relay>.fromOpaque(object).takeUnretainedValue().handlers.message(Message(topic: String(cString: topic), payload: payload))
        }
    }

    /// Publishes `payload` on `topic` at QoS 1 (kept and sent once the connection is
    /// back, if it is down). Returns `false`, having logged why, when libmosquitto
    /// refuses it. The corresponding C function is `mosquitto_publish`.
    @discardableResult
    public func publish(_ topic: String, _ payload: String, retain: Bool) -> Bool {
        publish(topic, bytes: Array(payload.utf8), retain: retain)
    }

    /// Publishes `bytes` (a picture) on `topic`, as ``publish(_:_:retain:)`` does.
    @discardableResult
    public func publish(_ topic: String, bytes: [UInt8], retain: Bool) -> Bool {
        relay.unacknowledged.withLock { $0 += 1 }
        let code = mosquitto_publish(handle, nil, topic, Int32(bytes.count), bytes, 1, retain)
        guard code == MOSQ_ERR_SUCCESS.rawValue || code == MOSQ_ERR_NO_CONN.rawValue else {
            relay.unacknowledged.withLock { $0 = max(0, $0 - 1) }
            relay.handlers.log("vidrec: MQTT: cannot publish \(topic): \(MQTTError.text(code))")
            return false
        }
        return true
    }

    /// Waits until the broker has acknowledged every message published so far, or
    /// `timeout` seconds have passed (a broker that is away acknowledges nothing).
    public func flush(timeout: Double) {
        let deadline = DispatchTime.now() + timeout
        while relay.unacknowledged.withLock({ $0 }) > 0 {
            guard relay.drained.wait(timeout: deadline) == .success else { return }
        }
    }

    /// Says goodbye to the broker (it does not publish the will) and waits for the
    /// loop's thread, once the broker has acknowledged what was published (for up to
    /// 2 s: libmosquitto drops what it has not sent when the connection ends). Call once.
    /// The corresponding C function is `mosquitto_disconnect`.
    public func stop() {
        flush(timeout: 2)
        relay.state.withLock { $0.stopping = true }
        _ = mosquitto_disconnect(handle)
        thread?.join()
        thread = nil
    }

    deinit {
        if thread != nil { stop() }
        mosquitto_destroy(handle)
    }
}

extension MQTTClient.Relay {
    /// The broker's answer to a connection of `handle`: subscribe, then tell the owner.
    func connected(_ handle: OpaquePointer, code: Int32) {
        let first = firstAnswer.withLock { answer -> Bool in
            defer { if answer == nil { answer = code } }
            return answer == nil
        }
        defer { if first { answered.signal() } }
        guard code == 0 else {
            if !first { handlers.log("vidrec: MQTT: the broker refused the connection: \(String(cString: mosquitto_connack_string(code)))") }
            return
        }
        let wasUp = state.withLock { state -> Bool in
            defer { (state.wasUp, state.isUp) = (true, true) }
            return state.wasUp
        }
        if wasUp { handlers.log("vidrec: MQTT: connected again") }
        for filter in subscriptions {
            let code = mosquitto_subscribe(handle, nil, filter, 1)
            if code != MOSQ_ERR_SUCCESS.rawValue { handlers.log("vidrec: MQTT: cannot subscribe to \(filter): \(MQTTError.text(code))") }
        }
        handlers.connected()
    }

    /// The connection ended: said, unless it was our goodbye.
    func disconnected(code: Int32) {
        let (stopping, wasUp) = state.withLock { state -> (Bool, Bool) in
            state.isUp = false
            if code != 0 { state.lastFailure = code }
            return (state.stopping, state.wasUp)
        }
        // Before the first connection, the failure is said by the wait for it.
        if !stopping, wasUp { handlers.log("vidrec: MQTT: lost the broker (\(MQTTError.text(code))); connecting again") }
    }
}
