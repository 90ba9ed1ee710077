import Foundation
import Testing

extension KernelDriverTests {
    /// `vidrec snap` on vivid: the camera's largest mode, its controls, and a photo taken
    /// from a recording that holds the camera.
    @Suite struct PhotoDeviceEndToEndTests {
        /// The largest picture vivid's first webcam offers, as `vidrec devices` lists it.
        static func largestMode(_ home: Home) throws -> (width: Int, height: Int) {
            let result = try VidrecProcess.run(["devices", "--json"], home: home.path)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
            let cameras = try #require(json["cameras"] as? [[String: Any]])
            let modes = try #require(cameras.first?["modes"] as? [[String: Any]])
            let sizes = modes.compactMap { mode in (mode["width"] as? Int).flatMap { w in (mode["height"] as? Int).map { (w, $0) } } }
            return try #require(sizes.max { $0.0 * $0.1 < $1.0 * $1.1 })
        }

        static func meanLuma(_ file: String) throws -> Double {
            let grey = try Probe.greyFrame(file, index: 0)
            return Double(grey.reduce(0) { $0 + Int($1) }) / Double(max(1, grey.count))
        }

        @Test func snapTakesVividsLargestPictureWithTheControlsAsked() throws {
            let home = try Home()
            let largest = try Self.largestMode(home)
            let bright = try VidrecProcess.run(["snap", "--camera", "0", "--set", "brightness=230", "--save", "--as", "bright"], home: home.path)
            #expect(bright.code == 0, "\(bright.err)")
            #expect(bright.out == home.photos + "/bright.jpg\n")
            let photo = try #require(try Probe.streams(home.photos + "/bright.jpg").first)
            #expect(photo.codec == "mjpeg" && photo.width == largest.width && photo.height == largest.height,
                    "\(photo.width)x\(photo.height), largest mode \(largest)")
            let dark = try VidrecProcess.run(["snap", "--camera", "0", "--size", "640x360", "--set", "brightness=30", "--save", "--as", "dark"],
                                             home: home.path)
            #expect(dark.code == 0, "\(dark.err)")
            let small = try #require(try Probe.streams(home.photos + "/dark.jpg").first)
            #expect(small.width == 640 && small.height == 360)
            let (light, shade) = (try Self.meanLuma(home.photos + "/bright.jpg"), try Self.meanLuma(home.photos + "/dark.jpg"))
            #expect(light - shade > 40, "brightness 230 against 30: luma \(light) against \(shade)")
        }

        @Test func snapWhileVividRecordsTakesThePhotoFromTheRecording() throws {
            let home = try Home()
            let preset = try DeviceEndToEndTests.writePreset(home)
            let recording = try VidrecProcess(["start", "--camera", "0", "--mic", "none", "--quality", preset, "--max", "30"], home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            let snap = try VidrecProcess.run(["snap", "--camera", "/dev/video0", "--save"], home: home.path)
            #expect(snap.code == 0, "\(snap.err)")
            #expect(snap.err.contains(", taken from recording "), "\(snap.err)")
            let busy = try VidrecProcess.run(["snap", "--camera", "0", "--set", "brightness=10"], home: home.path)
            #expect(busy.code == 75 && busy.err.hasPrefix("Error: the camera is recording ("), "\(busy.err)")
            recording.signal(SIGINT)
            let ended = recording.wait()
            #expect(ended.code == 0, "\(ended.err)")

            let path = snap.out.trimmingCharacters(in: .newlines)
            let photo = try #require(try Probe.streams(path).first)
            let movie = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let video = try #require(try Probe.streams(movie).first { $0.codec == "h264" })
            // The recording's camera mode (the movie is scaled from it): the same aspect.
            let (pw, ph, vw, vh) = (try #require(photo.width), try #require(photo.height), try #require(video.width), try #require(video.height))
            #expect(pw * vh == ph * vw, "photo \(pw)x\(ph), movie \(vw)x\(vh)")
            let frames = try Probe.decodedFrameCount(movie)
            #expect(ended.err.contains(", \(frames) frames"), "the movie holds every frame it reports: \(frames); \(ended.err)")
        }
    }
}
