import Foundation
import Synchronization
import VidrecCore
import VidrecMQTT

/// `vidrec start --mqtt`: tells the broker what happens to the recording as it
/// happens (``MQTTTopics``): its state, camera and preset (retained), each event on
/// `P/event` (started, saved, event-start and event-end, camera-gone and camera-back,
/// paused and resumed, failed, ended), motion `ON` while an event runs, the newest
/// saved file, and a photo it saves as the snapshot.
///
/// Publishing only queues the message for the client's own thread, so capture never
/// waits for the broker; while the broker is away libmosquitto keeps what was published
/// and sends it once it is back. When the broker cannot be reached as the recording
/// starts, the recording goes on without it (said once). It announces the entities that
/// need no one to take commands to Home Assistant (``HomeAssistantDiscovery``), and is
/// available on `P/availability/recording` while it runs (its will says `offline`).
final class MQTTReport: FollowUp {
    private let client: MQTTClient?
    private let topics: MQTTTopics
    private let preset: String
    private let pendingArea: String
    private let recording = Mutex<String?>(nil)

    /// Connects to the broker `options` names.
    ///
    /// - Parameters:
    ///   - pendingArea: the folder whose free space is told.
    ///   - warn: where a broker that cannot be reached is told (one line, no prefix).
    init(_ options: MQTTOptions, preset: String, pendingArea: String, log: @escaping @Sendable (String) -> Void,
         warn: @escaping @Sendable (String) -> Void) throws {
        topics = MQTTTopics(prefix: options.address.prefix)
        self.preset = preset
        self.pendingArea = pendingArea
        let discovery = HomeAssistantDiscovery(topics: topics, name: "vidrec \(options.address.prefix)", version: VidrecCLI.version,
                                               takesCommands: false)
        let topics = topics
        do {
            // On each connection: available, and the entities that need no one to take
            // commands (announced by serve too, in the same words).
            let announce: @Sendable (MQTTClient) -> Void = { client in
                client.publish(topics.recordingAvailability, "online", retain: true)
                for message in discovery.messages { client.publish(message.topic, message.payload, retain: true) }
            }
            let box = ClientBox()
            client = try options.connect(clientID: "vidrec-start-\(getpid())", will: (topics.recordingAvailability, "offline"),
                                         log: { log($0 + "\n") }, connected: { box.client.map(announce) })
            box.client = client
            client.map(announce)
        } catch let error as MQTTError {
            warn("MQTT: \(error); recording without it")
            client = nil
        }
    }

    /// The client, for its connection handler, which runs before the client is made.
    private final class ClientBox: @unchecked Sendable {
        // Set once, right after the first connection; a reconnection's handler that
        // finds it unset has announced nothing yet, and init announces after setting it.
        weak var client: MQTTClient?
    }

    /// Publishes `fields` on `P/event`, with the event's name, the recording's ID and
    /// the time.
    private func tell(_ event: String, _ fields: [String: Any?] = [:], time: Date = Date()) {
        var object: [String: Any] = ["event": event, "time": DateText.iso8601(time, milliseconds: true), "preset": preset]
        if let id = recording.withLock({ $0 }) { object["id"] = id }
        for case let (key, value?) in fields { object[key] = value }
        client?.publish(topics.event, json: object, retain: false)
    }

    private func set(_ topic: String, _ value: String) { client?.publish(topic, value, retain: true) }

    private func tellFreeSpace() {
        if let free = MQTTClient.freeSpaceText(at: pendingArea) { set(topics.freeSpace, free) }
    }

    func saved(_ file: SavedFile) {
        let name = (file.path as NSString).lastPathComponent
        set(topics.lastSaved, name)
        tell("saved", ["file": file.path, "name": name, "kind": file.kind.rawValue, "id": file.id, "duration": file.duration])
        if file.kind == .photo { client?.publishSnapshot(file.path, topics: topics) }
        tellFreeSpace()
    }

    func happened(_ happening: RecordingHappening) {
        switch happening {
        case let .started(id, camera):
            recording.withLock { $0 = id }
            set(topics.state, "recording")
            set(topics.camera, camera)
            set(topics.preset, preset)
            tell("started", ["camera": camera])
            tellFreeSpace()
        case let .eventStarted(index, id, start):
            set(topics.motion, "ON")
            tell("event-start", ["event-id": id, "index": index + 1], time: start)
        case let .eventEnded(report):
            set(topics.motion, "OFF")
            tell("event-end", ["event-id": report.id, "index": report.index + 1, "file": report.savedPath, "duration": report.duration,
                               "reason": report.problem])
        case let .cameraGone(camera, reason):
            tell("camera-gone", ["camera": camera, "reason": reason])
        case let .cameraBack(camera, seconds):
            tell("camera-back", ["camera": camera, "after": (seconds * 10).rounded() / 10])
        case let .microphoneGone(microphone, reason):
            tell("microphone-gone", ["microphone": microphone, "reason": reason])
        case let .microphoneBack(microphone, seconds):
            tell("microphone-back", ["microphone": microphone, "after": (seconds * 10).rounded() / 10])
        case let .paused(paused):
            set(topics.state, paused ? "paused" : "recording")
            tell(paused ? "paused" : "resumed")
        case let .failed(reason, exitCode):
            tell("failed", ["reason": reason, "exitCode": Int(exitCode)])
        }
    }

    var isFinishing: Bool { false }

    func interrupt() -> String { "" }

    func finish() -> String? {
        tell("ended")
        end()
        return nil
    }

    func abandon() { end() }

    /// The state back to idle; the messages still queued sent, then goodbye.
    private func end() {
        set(topics.state, "idle")
        set(topics.motion, "OFF")
        tellFreeSpace()
        set(topics.recordingAvailability, "offline")
        client?.stop()
    }
}
