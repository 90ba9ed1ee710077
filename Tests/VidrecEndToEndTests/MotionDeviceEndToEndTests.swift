import Foundation
import Testing

extension KernelDriverTests {
    /// `--trigger motion` on vivid, whose test pattern stands still or moves as its
    /// controls say: nothing is recorded while it stands still, an event while it moves.
    /// (Its colour bars sliding sideways, seen 32x18, move by about 2 to 6; its still
    /// picture, with the time drawn on it, by under 1.)
    @Suite struct MotionDeviceEndToEndTests {
        /// Sets vivid's first webcam's horizontal movement to the menu item `name`.
        static func move(_ home: Home, _ name: String) throws {
            let result = try VidrecProcess.run(["controls", "--camera", "0", "--json"], home: home.path)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
            let controls = try #require(json["controls"] as? [[String: Any]])
            let movement = try #require(controls.first { $0["key"] as? String == "horizontal_movement" }, "vivid has horizontal_movement")
            let menu = try #require(movement["menu"] as? [[String: Any]])
            let item = try #require(menu.first { $0["name"] as? String == name }, "\(menu)")
            _ = try Probe.tool("v4l2-ctl", ["-d", "/dev/video0", "-c", "horizontal_movement=\(try #require(item["value"] as? Int))"])
        }

        @Test func vividsPatternTriggersAnEventOnlyWhileItMoves() throws {
            let home = try Home()
            try Self.move(home, "No Movement")
            defer { try? Self.move(home, "No Movement") }
            let preset = try DeviceEndToEndTests.writePreset(home)
            let recording = try VidrecProcess(["start", "--camera", "0", "--mic", "none", "--quality", preset, "--trigger", "motion=2",
                                               "--pre", "1", "--post", "1"], home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            let still = try #require(try recording.waitUntilRecorded(3))
            #expect(home.files(in: home.pending, ending: ".partial.mp4").isEmpty, "a still picture triggers nothing")
            try Self.move(home, "Move Right Fast")
            let moving = try #require(try recording.waitUntilRecorded(still + 3))
            try Self.move(home, "No Movement")
            // Once it stands still again, the event closes after --post.
            #expect(recording.waitForError(containing: "vidrec: event 1 closed: "))
            recording.signal(SIGINT)
            let ended = recording.wait()
            #expect(ended.code == 0, "\(ended.err)")
            #expect(ended.err.contains("vidrec: 1 event, "), "\(ended.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let duration = try Probe.formatDuration(file)
            // Not the still start, and about the moving seconds (with --pre and --post).
            #expect(duration >= 2 && duration <= moving - still + 8, "\(duration) s of event for \(moving - still) s of movement")
        }
    }
}
