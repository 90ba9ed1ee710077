import Foundation
import Glibc
import Testing

extension KernelDriverTests {
    /// `vidrec controls` and `start --set`, on vivid's controls: a value changes the
    /// recorded picture, and the camera is left as it was found.
    @Suite struct CameraControlsEndToEndTests {
        static func controls(_ home: Home) throws -> [[String: Any]] {
            let result = try VidrecProcess.run(["controls", "--camera", "0", "--json"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
            return try #require(json["controls"] as? [[String: Any]])
        }

        static func brightness(_ home: Home) throws -> Int {
            let control = try #require(try controls(home).first { $0["key"] as? String == "brightness" })
            return try #require(control["value"] as? Int)
        }

        /// Records a second from vivid's first webcam with `arguments` and returns the
        /// first frame's mean luma.
        static func record(_ home: Home, _ arguments: [String]) throws -> (luma: Double, err: String) {
            let preset = try DeviceEndToEndTests.writePreset(home)
            let result = try VidrecProcess.run(["start", "--camera", "0", "--mic", "none", "--quality", preset, "--max", "1"] + arguments,
                                               home: home.path)
            #expect(result.code == 0, "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").last)
            let grey = try Probe.greyFrame(file, index: 0)
            try FileManager.default.removeItem(atPath: file)
            return (Double(grey.reduce(0) { $0 + Int($1) }) / Double(max(1, grey.count)), result.err)
        }

        @Test func aControlSetForARecordingChangesThePictureAndIsSetBackAfterwards() throws {
            let home = try Home()
            let listed = try Self.controls(home)
            let brightness = try #require(listed.first { $0["key"] as? String == "brightness" })
            #expect(brightness["type"] as? String == "integer")
            #expect(brightness["min"] as? Int == 0 && brightness["max"] as? Int == 255)
            #expect(listed.contains { !(($0["menu"] as? [[String: Any]]) ?? []).isEmpty }, "vivid has menu controls, with their items")
            let original = try Self.brightness(home)

            let bright = try Self.record(home, ["--set", "brightness=230"])
            #expect(bright.err.contains("vidrec: camera controls: brightness=230 (was \(original)); set back at the end"), "\(bright.err)")
            #expect(try Self.brightness(home) == original, "set back after the recording")
            let dark = try Self.record(home, ["--set", "Brightness=30"])
            #expect(try Self.brightness(home) == original)
            #expect(bright.luma - dark.luma > 40, "brightness 230 against 30: luma \(bright.luma) against \(dark.luma)")

            // --keep-controls leaves the value; put it back for the tests that follow.
            defer { _ = try? Probe.tool("v4l2-ctl", ["-d", "/dev/video0", "-c", "brightness=\(original)"]) }
            let kept = try Self.record(home, ["--set", "brightness=200", "--keep-controls"])
            #expect(kept.err.contains("kept afterwards (--keep-controls)"), "\(kept.err)")
            #expect(try Self.brightness(home) == 200)
        }

        @Test func aControlTheCameraLacksOrAValueOutOfRangeIsRefusedBeforeRecording() throws {
            let home = try Home()
            let preset = try DeviceEndToEndTests.writePreset(home)
            let start = ["start", "--camera", "0", "--mic", "none", "--quality", preset, "--max", "1"]
            let unknown = try VidrecProcess.run(start + ["--set", "nosuch=1"], home: home.path)
            #expect(unknown.code == 65)
            #expect(unknown.err.hasPrefix("Error: camera /dev/video0 (vivid) has no control 'nosuch'; it has: brightness, contrast, saturation, hue"),
                    "\(unknown.err)")
            let range = try VidrecProcess.run(start + ["--set", "brightness=999"], home: home.path)
            #expect(range.code == 65)
            #expect(range.err == "Error: brightness cannot be set to '999': it takes 0..255\n", "\(range.err)")
            let focus = try VidrecProcess.run(start + ["--focus", "auto"], home: home.path)
            #expect(focus.code == 65)
            #expect(focus.err.hasPrefix("Error: camera /dev/video0 (vivid) has no automatic focus control (focus_automatic_continuous or focus_auto); it has: "),
                    "\(focus.err)")
            #expect(home.files(in: home.pending, ending: "").isEmpty, "nothing left pending")
        }

        /// `controls --set` sets a control at once and leaves it set.
        @Test func controlsSetNowSetsAControlAndLeavesIt() throws {
            let home = try Home()
            let original = try Self.brightness(home)
            defer { _ = try? Probe.tool("v4l2-ctl", ["-d", "/dev/video0", "-c", "brightness=\(original)"]) }
            let set = try VidrecProcess.run(["controls", "--camera", "0", "--set", "brightness=77"], home: home.path)
            #expect(set.code == 0, "\(set.err)")
            #expect(set.err.contains("vidrec: camera controls of /dev/video0: brightness=77 (was \(original)); they stay set"), "\(set.err)")
            #expect(set.out.contains("brightness") && set.out.contains("= 77"), "the list after: \(set.out)")
            #expect(try Self.brightness(home) == 77)
        }

        /// `vidrec serve` on vivid: the viewfinder follows a control set from the page at
        /// once, and the camera is free for a recording once nobody watches.
        @Test func theViewfinderFollowsABrightnessSetFromThePageAndFreesTheCamera() throws {
            let home = try Home()
            let original = try Self.brightness(home)
            defer { _ = try? Probe.tool("v4l2-ctl", ["-d", "/dev/video0", "-c", "brightness=\(original)"]) }
            let serve = try VidrecProcess(["serve", "--camera", "0", "--mic", "none", "--quality", "low", "--listen", "127.0.0.1:0"],
                                          home: home.path)
            #expect(serve.waitForError(containing: "vidrec: serving "))
            let client = try ServeClient(serving: serve.errorSoFar)
            func luma(_ jpeg: Data) throws -> Double {
                let file = NSTemporaryDirectory() + "viewfinder-\(UUID().uuidString).jpg"
                try jpeg.write(to: URL(fileURLWithPath: file))
                defer { try? FileManager.default.removeItem(atPath: file) }
                let grey = try Probe.greyFrame(file, index: 0)
                return Double(grey.reduce(0) { $0 + Int($1) }) / Double(max(1, grey.count))
            }
            let before = try luma(try #require(client.pictures(2).last))
            let listed = try client.request("/api/controls").json
            let brightness = try #require((listed["controls"] as? [[String: Any]])?.first { $0["key"] as? String == "brightness" })
            #expect(brightness["value"] as? Int == original)
            let set = try client.post("controls", ["name": "brightness", "value": 230])
            #expect(set.status == 200 && (set.json["message"] as? String)?.contains("brightness=230") == true, "\(set.text)")
            // The pictures that follow are brighter (the first may have been made before).
            let after = try #require(Poll.until { () -> Double? in
                guard let picture = try? client.pictures(1).first, let value = try? luma(picture) else { return nil }
                return value > before + 30 ? value : nil
            }, "before: \(before)")
            #expect(after > before + 30)
            #expect(try Self.brightness(home) == 230, "it stays set")
            let refused = try client.post("controls", ["name": "brightness", "value": 999])
            #expect(refused.status >= 400 && refused.text.contains("brightness"), "\(refused.text)")

            // Nobody watches: within a few seconds the preview lets the camera go.
            #expect(Poll.until { ((try? client.state())?["viewfinder"] as? [String: Any])?["source"] as? String == "none" ? true : nil } == true)
            let preset = try DeviceEndToEndTests.writePreset(home)
            let recorded = try VidrecProcess.run(["start", "--camera", "0", "--mic", "none", "--quality", preset, "--max", "1"], home: home.path)
            #expect(recorded.code == 0, "the camera is free: \(recorded.err)")
            serve.signal(SIGTERM)
            #expect(serve.wait().code == 0)
        }
    
        /// A page left open on `vidrec serve`'s preview does not cost a recording that
        /// starts elsewhere (cron, a terminal): the preview claims the camera, the
        /// recording that finds it busy asks the server to lend it and records its whole
        /// length, and the page shows the preview again afterwards.
        @Test func aPageWatchingThePreviewLendsTheCameraToARecordingStartedElsewhere() throws {
            let home = try Home()
            let runtime = home.path + "/run"
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
            let environment = ["XDG_RUNTIME_DIR": runtime]
            let serve = try VidrecProcess(["serve", "--camera", "0", "--mic", "none", "--quality", "low", "--listen", "127.0.0.1:0"],
                                          home: home.path, environment: environment)
            #expect(serve.waitForError(containing: "vidrec: serving "))
            let client = try ServeClient(serving: serve.errorSoFar)
            let watcher = try client.watching()
            defer { watcher.stop() }
            func source() -> String? { ((try? client.state())?["viewfinder"] as? [String: Any])?["source"] as? String }
            #expect(Poll.until { source() == "preview" ? true : nil } == true)
            let claim = runtime + "/vidrec/preview-\(serve.pid).claim"
            #expect(try String(contentsOfFile: claim, encoding: .utf8) == "/dev/video0\n")

            let preset = try DeviceEndToEndTests.writePreset(home)
            let recording = try VidrecProcess(["start", "--camera", "0", "--mic", "none", "--quality", preset, "--max", "2"],
                                              home: home.path, environment: environment)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            #expect(recording.errorSoFar.contains("vidrec: camera lent by the preview of vidrec serve (pid \(serve.pid))"), "\(recording.errorSoFar)")
            let result = recording.wait()
            #expect(result.code == 0, "\(result.err)")
            // Every slot of the 60-frame grid is a captured frame or a counted drop (the
            // VM's vivid drops some under load), and the movie lasts the 2 s asked.
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let sidecar = try home.sidecar()
            let dropped = try #require(sidecar["droppedFrames"] as? Int)
            let repeated = try #require(sidecar["repeatedFrames"] as? Int)
            let frames = try Probe.decodedFrameCount(file)
            #expect(frames - repeated + dropped == 60, "\(frames) frames, \(repeated) repeated, \(dropped) dropped")
            #expect(abs(try Probe.formatDuration(file) - 2) < 0.05)
            // The page watches on: the preview comes back once the recording has ended.
            #expect(Poll.until { source() == "preview" ? true : nil } == true)
            #expect(FileManager.default.fileExists(atPath: claim))
            serve.signal(SIGTERM)
            #expect(serve.wait().code == 0)
            #expect(!FileManager.default.fileExists(atPath: claim), "the claim goes with the server")
        }
    }
}
