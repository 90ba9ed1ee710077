import Dispatch
import Foundation
import Synchronization
import VidrecCore
import VidrecHTTP
import VidrecMedia
import VidrecMQTT
import VidrecSystem

/// `vidrec serve --mqtt`: the server's link to the house. It keeps the retained state
/// (``MQTTTopics``) true, whoever starts or stops a recording, announces its entities to
/// Home Assistant (``HomeAssistantDiscovery``), and does the commands that come on
/// `P/command/NAME` as the page's buttons do (``ServeRoutes/perform(_:fields:)``),
/// answering each on `P/result`. A recording it starts gets `--mqtt` too, and tells
/// its own events (``MQTTReport``).
///
/// Commands wait in a queue of ``commandCapacity`` and run one at a time on the
/// server's MQTT thread (`vidrec.mqtt-serve`), which also looks at the state once a
/// second; a command that finds the queue full is refused and answered so, so that a
/// flood of messages costs only those messages.
final class ServeMQTT: Sendable {
    /// How many commands may wait while one runs.
    static let commandCapacity = 8

    private let client: MQTTClient
    private let topics: MQTTTopics
    private let routes: ServeRoutes
    private let store: RecordingStore
    private let discovery: HomeAssistantDiscovery
    private let commands = Mutex<(waiting: [MQTTClient.Message], stopping: Bool)>(([], false))
    private let wake = DispatchSemaphore(value: 0)
    /// What was last published on each retained topic; emptied on each connection, so
    /// that everything is published again.
    private let published = Mutex<[String: String]>([:])
    private let thread = Mutex<NamedThread?>(nil)

    /// Connects and starts the thread.
    ///
    /// - Throws: ``CLIError`` for an unreadable credentials file; ``MQTTError`` when the
    ///   broker cannot be reached or refuses.
    init(_ options: MQTTOptions, routes: ServeRoutes, store: RecordingStore, log: @escaping @Sendable (String) -> Void) throws {
        topics = MQTTTopics(prefix: options.address.prefix)
        self.routes = routes
        self.store = store
        discovery = HomeAssistantDiscovery(topics: topics, name: "vidrec \(options.address.prefix)", version: VidrecCLI.version,
                                           takesCommands: true)
        let relay = Relay()
        client = try options.connect(clientID: "vidrec-serve-\(getpid())", will: (topics.availability, "offline"),
                                     subscriptions: [topics.commands], log: { log($0 + "\n") },
                                     connected: { relay.target?.connected() }, message: { relay.target?.received($0) })
        relay.target = self
        connected()
        thread.withLock { $0 = NamedThread(name: "vidrec.mqtt-serve") { [self] in run() } }
    }

    /// Finds the bridge for the client's handlers, which exist before it does.
    private final class Relay: @unchecked Sendable {
        // Set once, before the first message can reach it (the subscription is made on
        // the client's thread after connecting, and the set happens-before that wait).
        weak var target: ServeMQTT?
    }

    /// Each (new) connection: online, the entities, and every retained value again.
    private func connected() {
        client.publish(topics.availability, "online", retain: true)
        for message in discovery.messages { client.publish(message.topic, message.payload, retain: true) }
        published.withLock { $0 = [:] }
        wake.signal()
    }

    /// A message on a command topic: queued for the thread, or refused when the queue
    /// is full.
    private func received(_ message: MQTTClient.Message) {
        let queued = commands.withLock { state -> Bool in
            guard state.waiting.count < Self.commandCapacity else { return false }
            state.waiting.append(message)
            return true
        }
        if queued {
            wake.signal()
        } else {
            answer(topics.commandName(of: message.topic) ?? message.topic,
                   error: "\(Self.commandCapacity) commands are already waiting; this one was dropped")
        }
    }

    private func run() {
        while true {
            _ = wake.wait(timeout: .now() + 1)
            while let message = commands.withLock({ $0.waiting.isEmpty ? nil : $0.waiting.removeFirst() }) { perform(message) }
            if commands.withLock({ $0.stopping }) { return }
            publishState()
        }
    }

    /// Publishes each retained value that changed.
    private func publishState() {
        let state = routes.state()
        let recording = state["recording"] as? [String: Any]
        let view = state["viewfinder"] as? [String: Any]
        var values = [topics.state: recording == nil ? "idle" : recording?["paused"] as? Bool == true ? "paused" : "recording",
                      topics.camera: view?["camera"] as? String ?? String(routes.cameraArgument.dropFirst("--camera=".count)),
                      topics.preset: recording?["preset"] as? String ?? routes.quality]
        if recording == nil { values[topics.motion] = "OFF" }
        values[topics.freeSpace] = MQTTClient.freeSpaceText(at: store.directory)
        if let newest = try? routes.album.items().first { values[topics.lastSaved] = newest.name }
        let changed = published.withLock { published in
            let changed = values.filter { published[$0.key] != $0.value }
            published.merge(changed) { $1 }
            return changed
        }
        for (topic, value) in changed.sorted(by: { $0.key < $1.key }) { client.publish(topic, value, retain: true) }
    }

    /// Does one command and answers it on `P/result`.
    private func perform(_ message: MQTTClient.Message) {
        guard let name = topics.commandName(of: message.topic) else { return }
        let payload = message.payload.trimmingCharacters(in: .whitespacesAndNewlines)
        let action: String
        var fields: [String: Any] = [:]
        switch name {
        case "start":
            if !payload.isEmpty {
                guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any] else {
                    return answer(name, error: "start takes nothing, or a JSON object such as {\"quality\": \"low\", \"max\": \"30s\"}")
                }
                fields = object
            }
            action = "start"
        case "recording":
            guard payload == "ON" || payload == "OFF" else { return answer(name, error: "recording takes ON or OFF") }
            action = payload == "ON" ? "start" : "stop"
        case "stop", ControlName.snap.rawValue, ControlName.trigger.rawValue, ControlName.pause.rawValue, ControlName.resume.rawValue:
            action = name
        default:
            return answer(TextSafety.printable(name), error: "no command '\(TextSafety.printable(name))'; there are start, stop, snap, trigger, pause, resume and recording (ON or OFF)")
        }
        let response = routes.perform(action, fields: fields)
        let reply: [String: Any]
        if case let .bytes(data) = response.body, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            reply = object
        } else {
            reply = [:]
        }
        guard response.status == 200 else {
            return answer(name, error: reply["error"] as? String ?? "failed (HTTP status \(response.status))")
        }
        if action == ControlName.snap.rawValue { publishSnapshot(said: reply["message"] as? String ?? "") }
        answer(name, error: nil)
        wake.signal()
    }

    /// The photo `vidrec snap` said it took (`vidrec: photo ID: …`), as the snapshot.
    private func publishSnapshot(said message: String) {
        guard let range = message.range(of: #"photo [0-9]{8}-[0-9]{6}(-[0-9]+)?"#, options: .regularExpression),
              let entry = try? store.entry(id: String(message[range].dropFirst("photo ".count)))
        else { return }
        client.publishSnapshot(entry.mediaPath, topics: topics)
    }

    private func answer(_ command: String, error: String?) {
        var object: [String: Any] = ["command": command, "ok": error == nil]
        object["error"] = error
        client.publish(topics.result, json: object, retain: false)
    }

    /// Offline, the thread stopped, goodbye to the broker.
    func stop() {
        commands.withLock { $0.stopping = true }
        wake.signal()
        thread.withLock { $0 }?.join()
        client.publish(topics.availability, "offline", retain: true)
        client.stop()
    }
}
