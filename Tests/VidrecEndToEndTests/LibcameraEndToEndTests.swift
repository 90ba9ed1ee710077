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
