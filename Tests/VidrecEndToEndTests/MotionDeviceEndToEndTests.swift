import Foundation
import Testing

extension KernelDriverTests {
    /// `--trigger motion` on vivid, whose test pattern stands still or moves as its
    /// controls say: nothing is recorded while it stands still, an event while it moves.
    /// (Its colour bars sliding sideways, seen 32x18, move by about 2 to 6; its still
    /// picture, with the time drawn on it, by under 1.)
    @Suite struct MotionDeviceEndToEndTests {
        /// The values of vivid's first webcam's `horizontal_movement` menu, by name.
        static func movements(_ home: Home) throws -> [String: Int] {
            let result = try VidrecProcess.run(["controls", "--camera", "0", "--json"], home: home.path)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
            let controls = try #require(json["controls"] as? [[String: Any]])
            let movement = try #require(controls.first { $0["key"] as? String == "horizontal_movement" }, "vivid has horizontal_movement")
            let menu = try #require(movement["menu"] as? [[String: Any]])
            return Dictionary(menu.compactMap { item in (item["name"] as? String).flatMap { name in (item["value"] as? Int).map { (name, $0) } } },
                              uniquingKeysWith: { first, _ in first })
        }

        /// Sets the movement to the menu item `name`.
        static func move(_ menu: [String: Int], _ name: String) throws {
            let value = try #require(menu[name], "\(menu)")
            _ = try Probe.tool("v4l2-ctl", ["-d", "/dev/video0", "-c", "horizontal_movement=\(value)"])
        }

        /// Alone, and beside a segmented archive (`--segment 2`), which goes on whole.
        @Test(.serialized, arguments: [[], ["--segment", "2"]])
        func vividsPatternTriggersAnEventOnlyWhileItMoves(segments: [String]) throws {
            let home = try Home()
            let menu = try Self.movements(home)
            try Self.move(menu, "No Movement")
            defer { try? Self.move(menu, "No Movement") }
            let preset = try DeviceEndToEndTests.writePreset(home)
            let recording = try VidrecProcess(["start", "--camera", "0", "--mic", "none", "--quality", preset, "--trigger", "motion=2",
                                               "--pre", "1", "--post", "1"] + segments, home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            let still = try #require(try recording.waitUntilRecorded(3))
            // (Beside segments, the files at the end say it: one event, as long as the movement.)
            if segments.isEmpty { #expect(home.files(in: home.pending, ending: ".partial.mp4").isEmpty, "a still picture triggers nothing") }
            try Self.move(menu, "Move Right Fast")
            guard let moving = try recording.waitUntilRecorded(still + 3) else {
                recording.signal(SIGINT)
                Issue.record("the recording stopped growing: \(recording.errorSoFar)\(recording.wait().err)")
                return
            }
            try Self.move(menu, "No Movement")
            // What was recorded by the time the picture stood still (a loaded machine
            // takes a while to get there).
            let stopped = try #require(try recording.waitUntilRecorded(moving))
            // Once it stands still again, the event closes after --post.
            #expect(recording.waitForError(containing: "vidrec: event 1 closed: "))
            recording.signal(SIGINT)
            let ended = recording.wait()
            #expect(ended.code == 0, "\(ended.err)")
            #expect(ended.err.contains("vidrec: 1 event, "), "\(ended.err)")
            // (Alone, the last event's sidecar says how the recording ended.)
            let files = try EndToEndTests.AlwaysOnEndToEndTests.pendingFiles(home)
            let events = segments.isEmpty ? files : files.filter(\.isEvent)
            try #require(events.count == 1, "\(files.map(\.path))")
            let file = events[0].path
            let duration = try Probe.formatDuration(file)
            if !segments.isEmpty {
                // Every segment but the last is two seconds, and together they are the recording.
                let lengths = try files.filter { !$0.isEvent }.map { try Probe.formatDuration($0.path) }
                #expect(lengths.count >= 3 && lengths.dropLast().allSatisfy { abs($0 - 2) < 0.01 }, "\(lengths)")
                #expect(ended.err.contains("vidrec: \(lengths.count) segments, "), "\(ended.err)")
            }
            // Not the still start, and about the moving seconds (with --pre and --post).
            #expect(duration >= 2 && duration <= stopped - still + 8, "\(duration) s of event for at most \(stopped - still) s of movement")
        }
    }
}
