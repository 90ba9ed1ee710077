import Foundation
import Glibc
import Testing

extension EndToEndTests {
    /// `--mqtt`: `vidrec serve` and `vidrec start` tell Debian's mosquitto (on
    /// 127.0.0.1, with passwords and an ACL) what happens, and serve does the commands
    /// that come from it; a subscriber checks every message.
    @Suite struct MQTTEndToEndTests {
        static let prefix = "vidrec/test"

        /// A broker in a folder of its own, the watcher subscribed, and a home.
        static func setUp() throws -> (broker: MQTTBroker, watcher: MQTTWatcher, home: Home) {
            // (The broker removes its folder when it goes.)
            let folder = NSTemporaryDirectory() + "vidrec-mqtt-\(UUID().uuidString)"
            let broker = try MQTTBroker(folder: folder)
            return (broker, try MQTTWatcher(broker), try Home())
        }

        @Test func serveTellsTheHouseWhatHappensAndDoesItsCommands() throws {
            let (broker, watcher, home) = try Self.setUp()
            let serve = try VidrecProcess(["serve", "--camera", "test", "--mic", "test", "--quality", "low", "--listen", "127.0.0.1:0",
                                           "--mqtt", broker.url(Self.prefix), "--mqtt-credentials", try broker.credentials("camera")],
                                          home: home.path)
            #expect(serve.waitForError(containing: "vidrec: serving "), "\(serve.errorSoFar)")
            try Self.expectOnlineWithItsEntitiesAndState(watcher)
            let (id, at) = try Self.recordPauseSnapAndStop(broker, watcher, home: home)
            // The recording the house started: both streams, from the test camera.
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let streams = try Probe.streams(file)
            #expect(streams.map(\.kind).sorted() == ["audio", "video"], "\(streams)")
            #expect(try Probe.formatDuration(file) >= 1)
            // Saved by hand: serve tells the house the album's newest file.
            let saved = try VidrecProcess.run(["save", id], home: home.path)
            try #require(saved.code == 0, "\(saved.err)")
            let name = (saved.out.trimmingCharacters(in: .newlines) as NSString).lastPathComponent
            try watcher.wait(after: at, topic: Self.prefix + "/last_saved", text: name)
            try Self.expectRetained(broker, lastSaved: name)
            serve.signal(SIGTERM)
            let ended = serve.wait()
            #expect(ended.code == 0, "\(ended.err)")
            try watcher.wait(after: at, topic: Self.prefix + "/availability", text: "offline")
            #expect(!broker.log.contains("Denied PUBLISH"), "every message within the ACL: \(broker.log)")
        }

        /// What a client that connects now gets at once, as retained messages: the
        /// state of things, the entities and the newest photo.
        static func expectRetained(_ broker: MQTTBroker, lastSaved: String) throws {
            let late = try MQTTWatcher(broker, id: "late")
            let p = prefix
            for (topic, text) in [("availability", "online"), ("state", "idle"), ("motion", "OFF"), ("camera", "test"), ("preset", "low"),
                                  ("last_saved", lastSaved)] {
                try late.wait(for: "\(topic) \(text), retained") { $0.topic == p + "/" + topic && $0.text == text && $0.retained }
            }
            for topic in [p + "/free_space", p + "/snapshot", "homeassistant/switch/vidrec_vidrec_test/recording/config"] {
                try late.wait(for: "\(topic), retained") { $0.topic == topic && $0.retained }
            }
            #expect(!late.messages.contains { $0.topic == p + "/event" || $0.topic == p + "/result" }, "events and answers are not kept")
        }

        /// Online; Home Assistant's five entities, each on the device and available with
        /// serve; the state, camera, preset and free space.
        static func expectOnlineWithItsEntitiesAndState(_ watcher: MQTTWatcher) throws {
            let p = prefix
            try watcher.wait(topic: p + "/availability", text: "online")
            for (component, object) in [("switch", "recording"), ("binary_sensor", "motion"), ("camera", "snapshot"),
                                        ("sensor", "free_space"), ("button", "snap")] {
                let config = try watcher.wait(for: "the \(object) entity") {
                    $0.topic == "homeassistant/\(component)/vidrec_vidrec_test/\(object)/config"
                }.message
                let availability = (config.json["availability"] as? [[String: String]])?.compactMap { $0["topic"] }
                #expect(availability == [p + "/availability", p + "/availability/recording"] && config.json["availability_mode"] as? String == "any",
                        "\(config.text)")
                #expect(config.json["unique_id"] as? String == "vidrec_vidrec_test_\(object)", "\(config.text)")
                #expect((config.json["device"] as? [String: Any])?["identifiers"] as? [String] == ["vidrec_vidrec_test"], "\(config.text)")
                let topics = ["command_topic", "state_topic", "topic"].compactMap { config.json[$0] as? String }
                #expect(!topics.isEmpty && topics.allSatisfy { $0.hasPrefix(p + "/") }, "\(config.text)")
            }
            for (topic, text) in [("state", "idle"), ("camera", "test"), ("preset", "low")] {
                try watcher.wait(for: "\(topic) \(text)") { $0.topic == p + "/" + topic && $0.text == text }
            }
            let free = try watcher.wait(for: "the free space") { $0.topic == p + "/free_space" }.message
            #expect((Double(free.text) ?? -1) > 0, "\(free.text)")
        }

        /// The command `name` with `payload`, and its answer on `P/result`, after the
        /// first `after` messages.
        static func command(_ name: String, _ payload: String = "", _ broker: MQTTBroker, _ watcher: MQTTWatcher,
                            after: Int) throws -> [String: Any] {
            try broker.publish(prefix + "/command/" + name, payload)
            return try watcher.wait(after: after, for: "the answer to \(name)") {
                $0.topic == prefix + "/result" && $0.json["command"] as? String == name
            }.message.json
        }

        /// Started, paused, resumed, a photo and stopped, each by command: each answered,
        /// each told as an event by the recording, the state following. Returns the
        /// recording's ID and how many messages came until it ended.
        static func recordPauseSnapAndStop(_ broker: MQTTBroker, _ watcher: MQTTWatcher, home: Home) throws -> (String, Int) {
            let p = prefix
            var at = watcher.messages.count
            let started = try command("start", #"{"quality": "low"}"#, broker, watcher, after: at)
            #expect(started["ok"] as? Bool == true, "\(started)")
            let event = try watcher.wait(after: at, for: "the started event") { $0.topic == p + "/event" && $0.json["event"] as? String == "started" }
            let id = try #require(event.message.json["id"] as? String, "\(event.message.text)")
            #expect(event.message.json["preset"] as? String == "low", "\(event.message.text)")
            at = try watcher.wait(after: at, topic: p + "/state", text: "recording")
            _ = try Home.waitUntilRecorded(1, pid: try #require(home.recordingPID()), home: home.path) { true }
            for (name, state) in [("pause", "paused"), ("resume", "recording")] {
                let answer = try command(name, "", broker, watcher, after: at)
                #expect(answer["ok"] as? Bool == true, "\(answer)")
                try watcher.wait(after: at, for: "the \(name) event") { $0.topic == p + "/event" && $0.json["event"] as? String == name + "d" }
                at = try watcher.wait(after: at, topic: p + "/state", text: state)
            }
            let snapped = try command("snap", "", broker, watcher, after: at)
            #expect(snapped["ok"] as? Bool == true, "\(snapped)")
            let snapshot = try watcher.wait(after: at, for: "the snapshot") { $0.topic == p + "/snapshot" }.message
            #expect(snapshot.payload.starts(with: [0xFF, 0xD8, 0xFF]), "a JPEG: \(snapshot.payload.prefix(4))")
            let unknown = try command("explode", "", broker, watcher, after: at)
            #expect(unknown["ok"] as? Bool == false && (unknown["error"] as? String)?.contains("no command 'explode'") == true, "\(unknown)")
            let stopped = try command("recording", "OFF", broker, watcher, after: at)
            #expect(stopped["ok"] as? Bool == true, "\(stopped)")
            try watcher.wait(after: at, for: "the ended event") { $0.topic == p + "/event" && $0.json["event"] as? String == "ended" && $0.json["id"] as? String == id }
            at = try watcher.wait(after: at, topic: p + "/state", text: "idle")
            return (id, at)
        }

        /// A recording waiting for triggers, with `--mqtt` alone: motion ON while its
        /// event runs, the event's start and end, and idle at the end.
        @Test func aRecordingTellsItsEventsAndMotion() throws {
            let (broker, watcher, home) = try Self.setUp()
            let p = Self.prefix
            let recording = try VidrecProcess(["start", "--camera", "test", "--mic", "test", "--quality", "low", "--pre", "1", "--post", "1",
                                               "--mqtt", broker.url(p), "--mqtt-credentials", try broker.credentials("camera")], home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "), "\(recording.errorSoFar)")
            var at = try watcher.wait(topic: p + "/state", text: "recording")
            // Available, with the entities that need no one to take commands.
            try watcher.wait(topic: p + "/availability/recording", text: "online")
            try watcher.wait(for: "the motion entity") { $0.topic == "homeassistant/binary_sensor/vidrec_vidrec_test/motion/config" }
            try recording.waitUntilRecorded(2)
            let triggered = try VidrecProcess.run(["trigger"], home: home.path)
            #expect(triggered.code == 0, "\(triggered.err)")
            at = try watcher.wait(after: at, topic: p + "/motion", text: "ON")
            let start = try watcher.wait(after: at, for: "event-start") { $0.topic == p + "/event" && $0.json["event"] as? String == "event-start" }
            #expect(start.message.json["index"] as? Int == 1, "\(start.message.text)")
            at = try watcher.wait(after: at, topic: p + "/motion", text: "OFF")
            let end = try watcher.wait(after: start.index, for: "event-end") { $0.topic == p + "/event" && $0.json["event"] as? String == "event-end" }
            #expect(end.message.json["event-id"] as? String == start.message.json["event-id"] as? String, "\(end.message.text)")
            #expect((end.message.json["duration"] as? Double ?? 0) >= 2, "the second before and after the trigger: \(end.message.text)")
            recording.signal(SIGINT)
            let ended = recording.wait()
            #expect(ended.code == 0, "\(ended.err)")
            try watcher.wait(after: at, topic: p + "/state", text: "idle")
            try watcher.wait(after: at, for: "the ended event") { $0.topic == p + "/event" && $0.json["event"] as? String == "ended" }
            try watcher.wait(after: at, topic: p + "/availability/recording", text: "offline")
            #expect(!watcher.messages.contains { $0.topic.hasPrefix("homeassistant/switch/") || $0.topic.hasPrefix("homeassistant/button/") },
                    "no switch or button without serve to take their commands")
            // A recording that cannot start says so, with its exit code.
            let failing = try VidrecProcess.run(["start", "--camera", "/dev/video-none", "--mic", "test", "--mqtt", broker.url(p),
                                                 "--mqtt-credentials", try broker.credentials("camera")], home: home.path)
            let failed = try watcher.wait(after: at, for: "the failed event") { $0.topic == p + "/event" && $0.json["event"] as? String == "failed" }
            #expect(failed.message.json["exitCode"] as? Int == Int(failing.code) && failing.code != 0, "\(failed.message.text) \(failing.err)")
            #expect((failed.message.json["reason"] as? String)?.contains("/dev/video-none") == true, "\(failed.message.text)")
        }

        /// Forty commands at once: eight wait while one runs, the rest are refused, and
        /// every one is answered; serve goes on answering after.
        @Test func aFloodOfCommandsCostsOnlyThoseCommands() throws {
            let (broker, watcher, home) = try Self.setUp()
            let serve = try VidrecProcess(["serve", "--camera", "test", "--quality", "low", "--listen", "127.0.0.1:0",
                                           "--mqtt", broker.url(Self.prefix), "--mqtt-credentials", try broker.credentials("camera")],
                                          home: home.path)
            #expect(serve.waitForError(containing: "vidrec: serving "), "\(serve.errorSoFar)")
            let at = try watcher.wait(topic: Self.prefix + "/state", text: "idle")
            try broker.publishBurst(Self.prefix + "/command/snap", Array(repeating: "now", count: 40))
            let answers = try #require(Poll.until { () -> [[String: Any]]? in
                let all = watcher.messages[at...].filter { $0.topic == Self.prefix + "/result" }.map(\.json)
                return all.count >= 40 ? all : nil
            }, "every command answered: \(watcher.messages.count) messages")
            let refused = answers.filter { ($0["error"] as? String)?.contains("commands are already waiting") == true }
            let done = answers.filter { $0["ok"] as? Bool == true }
            #expect(refused.count > 0 && done.count > 0 && refused.count + done.count == 40, "\(answers)")
            #expect(home.files(in: home.pending, ending: ".jpg").count == done.count)
            let after = try Self.command("trigger", "", broker, watcher, after: watcher.messages.count)
            #expect(after["ok"] as? Bool == false && (after["error"] as? String)?.isEmpty == false, "nothing records to trigger: \(after)")
            serve.signal(SIGTERM)
            #expect(serve.wait().code == 0)
        }

        /// `mqtts://`: the broker's certificate is checked against the authority the
        /// credentials file names; without it (the system's authorities) it is refused.
        @Test func aBrokerThatSpeaksTLSIsReachedThroughTheAuthorityNamed() throws {
            let (broker, watcher, home) = try Self.setUp()
            let serve = try VidrecProcess(["serve", "--camera", "test", "--listen", "127.0.0.1:0", "--mqtt", broker.tlsURL(Self.prefix),
                                           "--mqtt-credentials", try broker.credentials("camera", authority: broker.authority)], home: home.path)
            #expect(serve.waitForError(containing: "vidrec: serving "), "\(serve.errorSoFar)")
            try watcher.wait(topic: Self.prefix + "/availability", text: "online")
            serve.signal(SIGTERM)
            #expect(serve.wait().code == 0)
            let untrusted = try VidrecProcess.run(["serve", "--camera", "test", "--listen", "127.0.0.1:0", "--mqtt", broker.tlsURL("x"),
                                                   "--mqtt-credentials", try broker.credentials("camera")], home: home.path)
            #expect(untrusted.code == 69 && untrusted.err.contains("certificate") && untrusted.err.contains("ca= in --mqtt-credentials"), "\(untrusted.err)")
        }

        /// What cannot be used is refused before anything starts, naming the fix; a
        /// recording goes on without a broker it cannot reach.
        @Test func aBadAddressCredentialsOrBrokerIsSaidAndARecordingGoesOnWithoutIt() throws {
            let (broker, _, home) = try Self.setUp()
            let serve = ["serve", "--camera", "test", "--listen", "127.0.0.1:0", "--mqtt"]
            for (url, words) in [("http://127.0.0.1/x", "the scheme is mqtt://"), ("mqtt://camera:pw@127.0.0.1/x", "--mqtt-credentials"),
                                 ("mqtt://127.0.0.1:99999/x", "port"), ("mqtt://127.0.0.1/a/+/b", "without + or #")] {
                let refused = try VidrecProcess.run(serve + [url], home: home.path)
                #expect(refused.code == 64 && refused.err.contains("Error: The value ") && refused.err.contains(words), "\(url): \(refused.err)")
            }
            let alone = try VidrecProcess.run(["serve", "--mqtt-credentials", "/nonexistent"], home: home.path)
            #expect(alone.code == 64 && alone.err.contains("add --mqtt"), "\(alone.err)")
            let open = try broker.credentials("camera")
            chmod(open, 0o644)
            let readable = try VidrecProcess.run(serve + [broker.url("x"), "--mqtt-credentials", open], home: home.path)
            #expect(readable.code == 66 && readable.err.contains("chmod 600 \(open)"), "\(readable.err)")
            let wrong = try VidrecProcess.run(serve + [broker.url("x"), "--mqtt-credentials", try broker.credentials("camera", password: "nope")],
                                              home: home.path)
            #expect(wrong.code == 69 && wrong.err.contains("not authorised") && wrong.err.contains("--mqtt-credentials"), "\(wrong.err)")
            let nobody = "mqtt://127.0.0.1:\(LocalPort.free())/x"
            let refusedConnection = try VidrecProcess.run(serve + [nobody], home: home.path)
            #expect(refusedConnection.code == 69 && refusedConnection.err.contains("Connection refused"), "\(refusedConnection.err)")
            let recording = try VidrecProcess.run(["start", "--camera", "test", "--mic", "test", "--quality", "low", "--max", "1", "--mqtt", nobody],
                                                  home: home.path)
            #expect(recording.code == 0 && recording.err.contains("recording without it"), "\(recording.err)")
            #expect(home.files(in: home.pending, ending: ".mp4").count == 1)
        }
    }
}
