import VidrecMQTT

/// `--mqtt` and `--mqtt-credentials`, on `vidrec start` and `vidrec serve`: the broker
/// to tell what happens, and the file with its user name and password.
struct MQTTOptions: Sendable {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let mqtt = ArgumentKey.option("mqtt", value: "url", help: "Tell an MQTT broker what happens, and (with 'vidrec serve') take commands from it: mqtt://host[:port]/prefix, or mqtts:// for TLS. Topics start with the prefix (default vidrec); the README's MQTT section lists them.")
        static let credentials = ArgumentKey.option("mqtt-credentials", value: "file", help: "The broker's user name and password (username= and password= lines, and ca= for a certificate authority of its own), in a file only its owner can read (chmod 600). Never on the command line.")
    }

    /// The options' help.
    static let arguments: [ArgumentSpec] = [Key.mqtt.spec, Key.credentials.spec]

    var address: MQTTAddress
    /// The credentials file, read when the command runs (``credentials()``).
    var credentialsPath: String?

    /// The options, checked; `nil` without `--mqtt`.
    static func parse(_ arguments: ParsedArguments) throws(ParserError) -> MQTTOptions? {
        guard let text = arguments[Key.mqtt] else {
            if arguments[Key.credentials] != nil { throw .conflicting("--mqtt-credentials <file>", "no broker; add --mqtt") }
            return nil
        }
        do throws(MQTTAddress.Problem) {
            return MQTTOptions(address: try MQTTAddress(text), credentialsPath: arguments[Key.credentials])
        } catch {
            throw .invalidValue(text, for: Key.mqtt.spec.synopsis, reason: error.reason)
        }
    }

    /// The options again, for a recording that `vidrec serve` starts.
    var commandLine: [String] {
        ["--mqtt=\(address)"] + (credentialsPath.map { ["--mqtt-credentials=\($0)"] } ?? [])
    }

    /// The credentials file's contents; `nil` without one.
    ///
    /// - Throws: ``CLIError`` naming the file and the fix.
    func credentials() throws -> MQTTCredentials? {
        guard let credentialsPath else { return nil }
        do throws(MQTTCredentials.Problem) {
            return try MQTTCredentials.load(credentialsPath)
        } catch {
            throw CLIError("--mqtt-credentials: \(error.reason)", .noInput)
        }
    }

    /// Connects as `clientID`, saying in the log when the connection is lost and made
    /// again.
    func connect(clientID: String, will: (topic: String, payload: String)?, subscriptions: [String] = [],
                 log: @escaping @Sendable (String) -> Void, connected: @escaping @Sendable () -> Void = {},
                 message: @escaping @Sendable (MQTTClient.Message) -> Void = { _ in }) throws -> MQTTClient {
        try MQTTClient(address: address, clientID: clientID, credentials: try credentials(), will: will, subscriptions: subscriptions,
                       handlers: MQTTClient.Handlers(connected: connected, message: message, log: log))
    }
}
