import Foundation
import Glibc
import Synchronization
import Testing

/// Debian's mosquitto on 127.0.0.1, with passwords and an ACL as a house would have
/// them: `camera` may publish and read under `vidrec/` and `homeassistant/`; `house`
/// reads everything and may publish commands only (`vidrec/+/command/#`, and
/// `vidrec/+/+/command/#`).
final class MQTTBroker {
    let port: Int
    /// The port that speaks TLS, with a certificate for 127.0.0.1 from ``authority``.
    let tlsPort: Int
    let folder: String
    /// The test's own certificate authority (PEM), which signed the broker's certificate.
    var authority: String { folder + "/ca.pem" }
    private var process: Process?
    private var signaller: ChildSignal?

    static let users = ["camera": "camera-secret", "house": "house-secret"]

    /// Whether mosquitto and its clients are installed (`scripts/install-deps --servers`).
    static var isInstalled: Bool {
        ["/usr/sbin/mosquitto", "/usr/bin/mosquitto_sub", "/usr/bin/mosquitto_pub", "/usr/bin/mosquitto_passwd"]
            .allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Writes the configuration, the password file and the ACL into `folder`, and starts
    /// the broker.
    init(folder: String) throws {
        try #require(Self.isInstalled, "mosquitto is missing: run scripts/install-deps --servers")
        port = LocalPort.free()
        tlsPort = LocalPort.free()
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A file per user, made with -c, then joined: adding a user to a file writes a
        // temporary file in /tmp, which is read-only in the VM's guest.
        let passwords = folder + "/passwd"
        var lines = ""
        for (user, password) in Self.users.sorted(by: { $0.key < $1.key }) {
            let one = folder + "/passwd-" + user
            let made = try Self.tool("mosquitto_passwd", ["-b", "-c", one, user, password])
            try #require(made.code == 0, "mosquitto_passwd: \(made.err)")
            lines += try String(contentsOfFile: one, encoding: .utf8)
        }
        try lines.write(toFile: passwords, atomically: false, encoding: .utf8)
        chmod(passwords, 0o600)
        let acl = """
        user camera
        topic readwrite vidrec/#
        topic readwrite homeassistant/#
        user house
        topic read #
        topic write vidrec/+/command/#
        topic write vidrec/+/+/command/#
        """
        try acl.write(toFile: folder + "/acl", atomically: true, encoding: .utf8)
        chmod(folder + "/acl", 0o600)
        try Self.makeCertificates(in: folder)
        let configuration = """
        per_listener_settings false
        listener \(port) 127.0.0.1
        listener \(tlsPort) 127.0.0.1
        cafile \(folder)/ca.pem
        certfile \(folder)/server.pem
        keyfile \(folder)/server.key
        allow_anonymous false
        password_file \(passwords)
        acl_file \(folder)/acl
        persistence false
        user \(String(cString: getpwuid(getuid()).pointee.pw_name))
        log_dest file \(folder)/mosquitto.log
        log_type all
        """
        try configuration.write(toFile: folder + "/mosquitto.conf", atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/mosquitto")
        process.arguments = ["-c", folder + "/mosquitto.conf"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        signaller = ChildSignal(process)
        let listening = Poll.until { LocalPort.isListening(port) && LocalPort.isListening(tlsPort) ? true : (process.isRunning ? nil : false) }
        try #require(listening == true, "mosquitto did not start: \(log)")
    }

    /// A certificate authority of the test's own and, signed by it, the broker's
    /// certificate for 127.0.0.1 (with openssl).
    private static func makeCertificates(in folder: String) throws {
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: folder + "/san.ext", atomically: true, encoding: .utf8)
        for arguments in [["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
                           "-subj", "/CN=vidrec test authority"],
                          ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1"],
                          ["x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "server.pem",
                           "-days", "2", "-extfile", "san.ext"]] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: folder)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0, "openssl \(arguments.prefix(2))")
        }
    }

    /// `mqtts://127.0.0.1:TLSPORT/prefix`.
    func tlsURL(_ prefix: String) -> String { "mqtts://127.0.0.1:\(tlsPort)/\(prefix)" }

    /// The broker's log, for messages.
    var log: String { (try? String(contentsOfFile: folder + "/mosquitto.log", encoding: .utf8)) ?? "" }

    /// `mqtt://127.0.0.1:PORT/prefix`.
    func url(_ prefix: String) -> String { "mqtt://127.0.0.1:\(port)/\(prefix)" }

    /// A credentials file for `user`, mode 0600, in the broker's folder; with
    /// `authority`, its `ca=` line.
    func credentials(_ user: String, password: String? = nil, authority: String? = nil) throws -> String {
        let path = folder + "/\(user)\(authority == nil ? "" : "-tls").credentials"
        try ("# the broker's user\nusername=\(user)\npassword=\(password ?? Self.users[user]!)\n" + (authority.map { "ca=\($0)\n" } ?? ""))
            .write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o600)
        return path
    }

    /// Publishes `payload` on `topic` as `house` (with `mosquitto_pub`, at QoS 1).
    func publish(_ topic: String, _ payload: String) throws {
        let result = try Self.tool("mosquitto_pub", ["-h", "127.0.0.1", "-p", "\(port)", "-u", "house", "-P", Self.users["house"]!,
                                                     "-q", "1", "-t", topic, "-m", payload])
        try #require(result.code == 0, "mosquitto_pub: \(result.err)")
    }

    /// Publishes each of `payloads` on `topic` as `house`, all over one connection as
    /// fast as it goes (`mosquitto_pub -l`, a message per line of its input).
    func publishBurst(_ topic: String, _ payloads: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_pub")
        process.arguments = ["-h", "127.0.0.1", "-p", "\(port)", "-u", "house", "-P", Self.users["house"]!, "-q", "1", "-t", topic, "-l"]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(payloads.map { $0 + "\n" }.joined().utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "mosquitto_pub -l failed")
    }

    /// Runs one of mosquitto's programs to its end.
    static func tool(_ name: String, _ arguments: [String]) throws -> (code: Int32, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + name)
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Kills the broker (a test thread may have the stop signals blocked, and a child
    /// inherits that: SIGKILL is the signal it cannot miss; nothing is kept on disk).
    func stop() {
        signaller?.send(SIGKILL)
        process?.waitUntilExit()
        process = nil
    }

    /// Stopped, and its folder removed unless `VIDREC_TEST_KEEP` is set.
    deinit {
        stop()
        guard ProcessInfo.processInfo.environment["VIDREC_TEST_KEEP"] == nil else { return }
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// Everything the broker passes on, as `house` sees it (`mosquitto_sub -t '#'`), in
/// order: each message's topic, payload and retained flag.
final class MQTTWatcher {
    struct Message: Equatable, Sendable {
        var topic: String
        var payload: [UInt8]
        var retained: Bool
        var text: String { String(decoding: payload, as: UTF8.self) }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any]) ?? [:] }
    }

    private let process = Process()
    private let output = Pipe()
    /// What came, kept apart so that the pipe's handler can hold it.
    private final class Inbox: Sendable {
        let state = Mutex<(messages: [Message], partial: String)>(([], ""))
    }
    private let inbox = Inbox()
    private var signaller: ChildSignal?

    /// Subscribes to every topic as the client `id`; returns once the broker has the
    /// subscription (its log says so), so that no message published after is missed.
    /// A watcher that comes later gets the retained messages first, flagged so.
    init(_ broker: MQTTBroker, id: String = "watcher") throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/mosquitto_sub")
        process.arguments = ["-h", "127.0.0.1", "-p", "\(broker.port)", "-u", "house", "-P", MQTTBroker.users["house"]!,
                             "-i", id, "-q", "1", "-t", "#", "-F", "%r %t %x"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        output.fileHandleForReading.readabilityHandler = { [inbox] handle in
            let data = handle.availableData
            inbox.state.withLock { state in
                state.partial += String(decoding: data, as: UTF8.self)
                while let newline = state.partial.firstIndex(of: "\n") {
                    let line = state.partial[..<newline]
                    state.partial = String(state.partial[state.partial.index(after: newline)...])
                    if let message = Self.parse(line) { state.messages.append(message) }
                }
            }
        }
        try process.run()
        signaller = ChildSignal(process)
        try #require(Poll.until { broker.log.contains("\(id) 1 #") ? true : nil } == true, "the watcher did not subscribe: \(broker.log)")
    }

    /// `R TOPIC HEX`: the retained flag, the topic (no spaces in ours), the payload in hex.
    private static func parse(_ line: Substring) -> Message? {
        let fields = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard fields.count >= 2 else { return nil }
        let hex = fields.count == 3 ? Array(fields[2].utf8) : []
        var bytes: [UInt8] = []
        var index = 0
        while index + 1 < hex.count {
            guard let byte = UInt8(String(decoding: hex[index...(index + 1)], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
            index += 2
        }
        return Message(topic: String(fields[1]), payload: bytes, retained: fields[0] == "1")
    }

    /// Every message so far.
    var messages: [Message] { inbox.state.withLock { $0.messages } }

    /// The first message after the first `after` that `matches`, waiting for it.
    @discardableResult
    func wait(after: Int = 0, for description: String, _ matches: (Message) -> Bool,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> (index: Int, message: Message) {
        let found = Poll.until { () -> (Int, Message)? in
            let all = messages
            guard after < all.count else { return nil }
            return all[after...].firstIndex(where: matches).map { ($0, all[$0]) }
        }
        return try #require(found, "no \(description) came: \(messages.map { "\($0.topic) \($0.text.prefix(120))" })",
                            sourceLocation: sourceLocation)
    }

    /// The first message on `topic` after the first `after` with `text`, waiting for it.
    @discardableResult
    func wait(after: Int = 0, topic: String, text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Int {
        try wait(after: after, for: "\(topic) \(text)", { $0.topic == topic && $0.text == text }, sourceLocation: sourceLocation).index
    }

    deinit {
        signaller?.send(SIGKILL)  // as the broker's, see MQTTBroker.stop()
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
    }
}
