import Foundation
import Testing

extension KernelDriverTests {
    /// A camera libcamera drives, recorded natively (``VimcCamera``: vimc through
    /// libcamera's vimc pipeline handler and IPA), in the VM.
    @Suite struct LibcameraEndToEndTests {
        @Test func devicesListsTheVimcCameraThroughLibcameraWithItsModes() throws {
            let camera = try VimcCamera()
            let home = try Home()
            let listed = try VidrecProcess.run(["devices", "--json"], home: home.path)
            withExtendedLifetime(camera) {}
            #expect(listed.code == 0, "\(listed.err)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any])
            let cameras = try #require(object["libcameraCameras"] as? [[String: Any]])
            let vimc = try #require(cameras.first { $0["id"] as? String == VimcCamera.id }, "\(cameras)")
            #expect(vimc["camera"] as? String == VimcCamera.selector)
            #expect(vimc["model"] as? String == "Sensor B")
            let modes = Set((vimc["modes"] as? [[String: Any]] ?? []).map { "\($0["format"]!) \($0["width"]!)x\($0["height"]!)" })
            // libcamera's RGB888 and BGR888, by V4L2's names.
            #expect(modes.isSuperset(of: ["RGB3 640x360", "BGR3 640x360", "RGB3 1920x1080", "BGR3 1920x1080"]), "\(modes)")
            let text = try VidrecProcess.run(["devices"], home: home.path)
            #expect(text.out.contains("  \(VimcCamera.selector)  Sensor B\n"), "\(text.out)")
        }

        /// vimc's three capture nodes (which have no VIDIOC_ENUM_FRAMEINTERVALS) are
        /// listed, and as parts of its libcamera camera where libcamera names a camera's
        /// nodes (0.4, Debian 13); where it cannot (0.0.3, Debian 12), as cameras of their own.
        @Test func vimcsNodesAreListedAsPartsOfItsLibcameraCamera() throws {
            let camera = try VimcCamera()
            let home = try Home()
            let listed = try VidrecProcess.run(["devices", "--json"], home: home.path)
            let text = try VidrecProcess.run(["devices"], home: home.path)
            withExtendedLifetime(camera) {}
            let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any])
            let nodes = (object["cameras"] as? [[String: Any]] ?? []).filter { $0["driver"] as? String == "vimc" }
            #expect(nodes.count == 3, "\(object["cameras"] ?? "")")
            let owners = nodes.map { $0["libcameraCamera"] as? String }
            if try Self.namesNodes(text.out) {
                #expect(owners.allSatisfy { $0 == VimcCamera.selector }, "\(owners)")
                #expect(text.out.contains("part of \(VimcCamera.selector), a camera libcamera runs: record it with --camera \(VimcCamera.selector)\n"),
                        "\(text.out)")
            } else {
                #expect(owners.allSatisfy { $0 == nil }, "\(owners)")
                #expect(!text.out.contains("part of libcamera:"), "\(text.out)")
            }
        }

        /// With vimc's nodes the only V4L2 cameras, `default` records vimc through
        /// libcamera where libcamera names its nodes (0.4): the first recordable node, its
        /// RGB capture, is a part of that camera and not a camera of its own.
        @Test func theDefaultCameraIsTheLibcameraCameraItsFirstNodeIsAPartOf() throws {
            let camera = try VimcCamera(alone: true)
            let home = try Home()
            let text = try VidrecProcess.run(["devices"], home: home.path)
            guard try Self.namesNodes(text.out) else { return }
            let result = try VidrecProcess.run(["start", "--mic", "none", "--quality", "low", "--max", "1"], home: home.path)
            withExtendedLifetime(camera) {}
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("camera: \(VimcCamera.selector) (Sensor B), through libcamera: /dev/video"), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first, "\(result.err)")
            #expect(try Probe.streams(file).map(\.codec) == ["h264"])
            #expect(try Probe.formatDuration(file) == 1)
            #expect(try home.sidecar()["cameraPath"] as? String == VimcCamera.selector)
        }

        /// vimc's libcamera controls are listed, `--set brightness=-0.7` darkens the
        /// recording and is set back at its end (a plain recording after it is as bright
        /// as libcamera's default), and a shortcut, a wrong name or a value out of range is
        /// refused with nothing recorded.
        @Test func libcameraControlsAreListedSetForTheRecordingAndSetBack() throws {
            let camera = try VimcCamera()
            let home = try Home()
            let listed = try VidrecProcess.run(["controls", "--camera", "libcamera:0", "--json"], home: home.path)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any], "\(listed.err)")
            let controls = (object["controls"] as? [[String: Any]] ?? []).reduce(into: [String: [String: Any]]()) { $0[$1["key"] as? String ?? ""] = $1 }
            #expect(Set(controls.keys).isSuperset(of: ["brightness", "contrast", "saturation"]), "\(controls)")
            #expect(controls["brightness"]?["type"] as? String == "float" && controls["brightness"]?["min"] as? Double == -1
                    && controls["brightness"]?["max"] as? Double == 1, "\(controls)")
            let record = ["start", "--camera", "libcamera:0", "--mic", "none", "--quality", "low", "--max", "1"]
            let dark = try VidrecProcess.run(record + ["--set", "brightness=-0.7"], home: home.path)
            #expect(dark.code == 0 && dark.err.contains("camera controls: brightness=-0.7; set back to libcamera's defaults at the end"), "\(dark.err)")
            let darkFile = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let plain = try VidrecProcess.run(record, home: home.path)
            #expect(plain.code == 0, "\(plain.err)")
            let plainFile = try #require(home.files(in: home.pending, ending: ".mp4").first { $0 != darkFile })
            let white = { (file: String) throws -> Int in
                Probe.meanColour(try Probe.rgbFrame(file, width: 640, height: 360), width: 640, x: 20, y: 8, w: 40, h: 24).reduce(0, +) / 3
            }
            let (darker, brighter) = (try white(darkFile), try white(plainFile))
            #expect(darker + 40 < brighter, "the white bar at brightness -0.7: \(darker), then at the default: \(brighter)")
            for (extra, message) in [(["--set", "nosuch=1"], "has no control 'nosuch'; it has: "),
                                     (["--set", "brightness=3"], "brightness cannot be set to '3': it takes -1..1"),
                                     (["--focus", "auto"], "--focus sets a V4L2 control, and \(VimcCamera.selector) is a libcamera camera")] {
                let refused = try VidrecProcess.run(record + extra, home: home.path)
                #expect(refused.code == 65 && refused.err.contains(message), "\(extra): \(refused.err)")
            }
            #expect(home.files(in: home.pending, ending: ".mp4").count == 2)
            let setNow = try VidrecProcess.run(["controls", "--camera", "libcamera:0", "--set", "brightness=0.5"], home: home.path)
            #expect(setNow.code == 64 && setNow.err.contains("whose controls last only while it records"), "\(setNow.err)")
            withExtendedLifetime(camera) {}
        }

        /// Whether `vidrec devices` shows a libcamera that names each camera's nodes
        /// (0.0.4 and later).
        static func namesNodes(_ devices: String) throws -> Bool {
            let line = try #require(devices.split(separator: "\n").first { $0.hasPrefix("Cameras through libcamera ") }, "\(devices)")
            let parts = line.dropFirst("Cameras through libcamera ".count).dropLast().split(separator: ".").compactMap { Int($0) }
            return parts.count == 3 && (parts[0], parts[1], parts[2]) >= (0, 0, 4)
        }

        /// The low preset for 3 s from the camera by its libcamera id: exactly 45 frames
        /// (each a picture the camera gave, or a counted drop), the sensor's colour bars
        /// in their colours, and no frame lost without a trace.
        @Test func aLibcameraCameraRecordsToTheFrameWithItsColours() throws {
            let camera = try VimcCamera()
            let home = try Home()
            let result = try VidrecProcess.run(["start", "--camera", VimcCamera.selector, "--mic", "none", "--quality", "low",
                                                "--max", "3"], home: home.path)
            withExtendedLifetime(camera) {}
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("camera mode: 640x360 "), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first, "\(result.err)")
            let streams = try Probe.streams(file)
            #expect(streams.map(\.codec) == ["h264"])
            #expect(streams[0].width == 640 && streams[0].height == 360 && streams[0].frameRate == "15/1")
            #expect(try Probe.formatDuration(file) == 3)
            let sidecar = try home.sidecar()
            // Every slot of the 45-frame grid is a picture the camera gave or a counted
            // drop (a loaded machine drops; the picture before a drop is repeated).
            let dropped = try #require(sidecar["droppedFrames"] as? Int)
            let repeated = try #require(sidecar["repeatedFrames"] as? Int)
            #expect(try Probe.decodedFrameCount(file) - repeated + dropped == 45, "\(sidecar)")
            #expect(dropped < 45, "no picture at all: \(sidecar)")
            try Self.expectBars(file)
        }

        /// `--segment 1` for 3 s from `libcamera:0`: three files of exactly a second, each
        /// from a keyframe.
        @Test func aLibcameraCameraIsCutIntoSegmentsCleanly() throws {
            let camera = try VimcCamera()
            let home = try Home()
            // By its index in libcamera's list, this time.
            let result = try VidrecProcess.run(["start", "--camera", "libcamera:0", "--mic", "none", "--quality", "low",
                                                "--max", "3", "--segment", "1"], home: home.path)
            withExtendedLifetime(camera) {}
            #expect(result.code == 0, "\(result.err)")
            let files = home.files(in: home.pending, ending: ".mp4").sorted()
            #expect(files.count == 3, "\(files)\n\(result.err)")
            for file in files {
                #expect(try Probe.formatDuration(file) == 1, "\(file)")
                #expect(try Probe.keyframePositions(file).first == 0, "\(file)")
            }
            try Self.expectBars(try #require(files.first))
        }

        /// The top of the first picture: the eight bars, each its colour (a channel is on
        /// above half the white bar's level, off below a quarter of it).
        static func expectBars(_ file: String) throws {
            let rgb = try Probe.rgbFrame(file, width: 640, height: 360)
            let colours = (0..<8).map { Probe.meanColour(rgb, width: 640, x: $0 * 80 + 20, y: 8, w: 40, h: 24) }
            let white = Double(colours[0].reduce(0, +)) / 3
            #expect(white > 60, "the white bar: \(colours[0])")
            for (index, bar) in VimcCamera.bars.enumerated() {
                let fits = zip(colours[index], bar).allSatisfy { level, on in on ? Double(level) > white / 2 : Double(level) < white / 4 }
                #expect(fits, "bar \(index): \(colours[index]) of white \(colours[0]), not \(bar)")
            }
        }
    }
}
