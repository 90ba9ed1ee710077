import Foundation
import Synchronization
import Glibc
import Testing

extension KernelDriverTests {
    /// The real binary against real kernel drivers: vivid's webcams and the snd-aloop
    /// card, in the VM that `vm/device-tests` boots (CI runs it). On the host, where those
    /// drivers are not loaded, the suite is reported as skipped.
    @Suite struct DeviceEndToEndTests {
        /// 320x180 at 30 fps: small enough to encode in real time under QEMU's TCG.
        static let smallPreset = """
        {"width": 320, "height": 180, "frameRate": 30, "container": "mp4",
         "video": {"codec": "libx264", "speed": "ultrafast", "crf": 23, "keyframeInterval": 30, "pixelFormat": "yuv420p"},
         "audio": {"codec": "aac", "sampleRate": 48000, "channels": 1, "bitRate": "64k"}}
        """

        static func writePreset(_ home: Home, _ text: String = smallPreset) throws -> String {
            let file = home.path + "/small.json"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            return file
        }

        @Test func devicesListsBothVividCamerasAndTheLoopbackMicrophone() throws {
            let home = try Home()
            let result = try VidrecProcess.run(["devices", "--json"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
            let cameras = try #require(json["cameras"] as? [[String: Any]])
            #expect(cameras.map { $0["path"] as? String } == ["/dev/video0", "/dev/video1"])
            #expect(cameras.allSatisfy { ($0["driver"] as? String) == "vivid" })
            let formats = Set((cameras[0]["modes"] as? [[String: Any]] ?? []).compactMap { $0["format"] as? String })
            #expect(formats.isSuperset(of: ["YUYV", "UYVY", "NV12", "YU12", "YV12", "RGB3", "BGR3"]))
            // Formats vidrec does not read are listed too, with their sizes and rates.
            #expect(formats.contains("YVYU"), "\(formats.sorted())")
            #expect((cameras[0]["controls"] as? [[String: Any]] ?? []).contains { ($0["name"] as? String) == "Brightness" })
            let microphones = try #require(json["microphones"] as? [[String: Any]])
            #expect(microphones.contains { ($0["name"] as? String) == "hw:0,1" && ($0["card"] as? String) == "Loopback" })
            #expect(microphones.contains { ($0["card"] as? String) == "Dummy" })
            let text = try VidrecProcess.run(["devices"], home: home.path)
            #expect(text.out.contains("0: /dev/video0  vivid"))
        }

        @Test func recordsTheWebcamWithTheLoopbackToneInStep() throws {
            let home = try Home()
            let tone = try TonePlayer(frequency: 440)
            let result = try VidrecProcess.run(["start", "--camera", "0", "--mic", "hw:Loopback,1,0", "--quality", "low", "--max", "3"],
                                               home: home.path)
            withExtendedLifetime(tone) {}
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("camera mode: 640x360 YUYV 15 fps"))
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let streams = try Probe.streams(file)
            #expect(streams.map(\.codec) == ["h264", "aac"])
            #expect(streams[0].width == 640 && streams[0].height == 360 && streams[0].frameRate == "15/1")
            // Every slot of the 45-frame grid is a captured frame or a counted drop (the
            // last frame is repeated into drops at the very end, so the movie lasts 3 s):
            // what the product promises on any machine, however busy.
            let frames = try Probe.decodedFrameCount(file)
            let sidecar = try home.sidecar()
            let dropped = try #require(sidecar["droppedFrames"] as? Int)
            let repeated = try #require(sidecar["repeatedFrames"] as? Int)
            #expect(frames - repeated + dropped == 45, "\(frames) frames, \(repeated) repeated, \(dropped) dropped")
            #expect(abs(try Probe.formatDuration(file) - 3.0) <= 1.0 / 15)
            let samples = try Probe.decodedAudio(file)
            #expect(abs(samples.count - 144_000) <= 1024)
            let heard = Probe.dominantFrequency(Array(samples[24000..<120_000]), rate: 48000)
            #expect(abs(heard.hertz - 440) < 2, "the 440 Hz tone: \(heard)")
            // Without an overrun the sound is never cut or padded: the tone runs on with
            // an unbroken phase from 20-ms block to block (turning a little where a loaded
            // machine set off the drift correction).
            if (sidecar["overruns"] as? Int ?? 0) == 0 {
                #expect(sidecar["insertedSilence"] as? Double == 0 && sidecar["droppedAudio"] as? Double == 0
                        && sidecar["closingSilence"] as? Double == 0, "\(sidecar)")
                let blocks = Probe.toneBlocks(Array(samples[4800...]), frequency: 440, rate: 48000)
                let jumps = Probe.phaseJumps(blocks, tolerance: Probe.phaseTolerance(frequency: 440, sidecar: sidecar))
                #expect(jumps.isEmpty, "phase jumps at blocks \(jumps) of \(blocks.count) (\(samples.count) samples): \(jumps.map { (blocks[$0 - 1], blocks[$0]) }); drift correction \(sidecar["driftCorrection"] ?? "none") s, closing silence \(sidecar["closingSilence"] ?? "none") s")
                #expect(blocks.filter { $0.amplitude < 1000 }.isEmpty, "no silent block")
            }
            // The tone plays throughout and the microphone starts before the camera, so sound
            // starts with the first frame: within 10 ms (480 samples; 0 to 9 in ten VM runs,
            // four of them beside two busy loops) without an overrun, whose silence may
            // fall there; one frame (3200) with one. It was a frame while the microphone
            // started after the camera.
            let firstSound = Probe.firstSound(samples)
            let allowed = (sidecar["overruns"] as? Int ?? 0) == 0 ? 480 : 3200
            #expect(firstSound <= allowed, "audio starts \(firstSound) samples after the first frame (\(sidecar["overruns"] ?? 0) overruns)")
        }

        /// Sound lands in the movie where it was captured, against the camera's frames:
        /// bursts the player plays at known instants on CLOCK_MONOTONIC (its playback
        /// position, which the loopback card hands to its capture side as it plays) sit
        /// in the movie at those instants after the movie's time 0 (its first frame's
        /// capture time, the sidecar's `clockOrigin`), within a frame (1/15 s).
        @Test func soundIsPlacedWhereItWasCapturedWithinAFrame() throws {
            try Self.expectBurstsWhereTheyWerePlayed(into: 0, mic: "hw:Loopback,1,0")
        }

        /// A recording of the bursts a player played (``recordBursts(into:mic:seconds:environment:prepare:)``).
        struct BurstRecording {
            /// Each burst's place in the movie and how far it lies from where it belongs
            /// (seconds; positive: late).
            let bursts: [(position: Double, offset: Double)]
            /// vidrec's standard error.
            let err: String
            let sidecar: [String: Any]
            /// What a failure message needs besides: the origins, the player's status.
            let context: String
            /// The offsets in whole milliseconds.
            var milliseconds: [Int] { bursts.map { Int(($0.offset * 1000).rounded()) } }
        }

        /// Records `seconds` of vivid with `mic` while a player plays bursts into the
        /// loopback card's playback `device` (``TonePlayer/init(burstsInto:)``). `prepare`
        /// is given the recording's home before it starts.
        static func recordBursts(into device: Int, mic: String, seconds: Int = 6, environment: [String: String] = [:],
                                 prepare: (String) throws -> Void = { _ in }) throws -> BurstRecording {
            let home = try Home()
            try prepare(home.path)
            let player = try TonePlayer(burstsInto: device)
            let playOrigin = try player.playOrigin()
            let result = try VidrecProcess.run(["start", "--camera", "0", "--mic", mic, "--quality", "low", "--max", "\(seconds)"],
                                               home: home.path, environment: environment)
            withExtendedLifetime(player) {}
            #expect(result.code == 0, "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let sidecar = try home.sidecar()
            #expect(player.underruns == 0, "the player underran: its bursts moved")
            let bursts = try Probe.bursts(file, sidecar: sidecar, playOrigin: playOrigin)
            #expect(bursts.count >= seconds - 2, "bursts found at \(bursts)")
            return BurstRecording(bursts: bursts, err: result.err, sidecar: sidecar,
                                  context: "played from \(playOrigin), movie from \(sidecar["clockOrigin"] ?? "-"), the sound's start moved \(sidecar["soundStartMoved"] ?? 0) s, \(player.statusText())")
        }

        /// Records 6 s of vivid with `mic` while a player plays bursts into the loopback
        /// card's playback `device` (``recordBursts(into:mic:seconds:environment:prepare:)``):
        /// each burst sits in the movie within a frame (1/15 s) of the instant it was played.
        static func expectBurstsWhereTheyWerePlayed(into device: Int, mic: String, environment: [String: String] = [:],
                                                    test: String = #function) throws {
            let recording = try recordBursts(into: device, mic: mic, environment: environment)
            print("\(test): bursts off by \(recording.milliseconds) ms")
            #expect(recording.bursts.allSatisfy { abs($0.offset) <= 1.0 / 15 }, "bursts off by \(recording.milliseconds) ms (\(recording.context))")
        }

        /// Under libcamera's V4L2 compatibility layer (what `libcamerify` does: v4l2-compat.so
        /// in LD_PRELOAD) vidrec reaches the camera through libc's calls, which the layer
        /// stands in behind, rather than libv4l2's, which pass it over: libv4l's converted
        /// formats are gone from `vidrec devices` and vivid records every frame as before.
        /// libcamera drives no camera here (its UVC, vimc and ISP pipelines match none of
        /// the VM's devices), so the layer hands vivid's node to the kernel.
        @Test func underLibcamerasCompatibilityLayerTheCameraIsReachedThroughLibc() throws {
            let compat = try #require(try LibcameraCompatibility.path(), "libcamera-v4l2 has no v4l2-compat.so (scripts/install-deps --vm)")
            let home = try Home()
            // A node that sends raw Bayer: libv4l2 converts it (into RGB3, BGR3, YU12,
            // YV12), libc's calls see the node as it is.
            let bayer = try LoopbackCamera(.bayer)
            let plain = try VidrecProcess.run(["devices"], home: home.path)
            #expect(plain.out.contains("RGB3 (converted by libv4l)"), "\(plain.out)")
            let layered = try VidrecProcess.run(["devices"], home: home.path, environment: ["LD_PRELOAD": compat])
            withExtendedLifetime(bayer) {}
            #expect(layered.code == 0, "\(layered.err)")
            #expect(layered.out.contains("0: /dev/video0") && layered.out.contains(LoopbackCamera.device), "\(layered.out)")
            #expect(!layered.out.contains("converted by libv4l") && layered.out.contains("raw Bayer (RGGB): needs libcamera"), "\(layered.out)")
            let result = try VidrecProcess.run(["start", "--camera", "0", "--mic", "none", "--quality", "low", "--max", "2"],
                                               home: home.path, environment: ["LD_PRELOAD": compat])
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("camera mode: 640x360 YUYV 15 fps"), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first, "\(result.err)")
            let sidecar = try home.sidecar()
            let dropped = try #require(sidecar["droppedFrames"] as? Int)
            let repeated = try #require(sidecar["repeatedFrames"] as? Int)
            #expect(try Probe.decodedFrameCount(file) - repeated + dropped == 30)
        }

        @Test func theSecondCameraIsChosenByIndexAndByName() throws {
            let home = try Home()
            let preset = try Self.writePreset(home)
            let byIndex = try VidrecProcess.run(["start", "--camera", "1", "--mic", "none", "--quality", preset, "--max", "1"], home: home.path)
            #expect(byIndex.code == 0, "\(byIndex.err)")
            #expect(byIndex.err.contains("from /dev/video1 (vivid)"))
            let byName = try VidrecProcess.run(["start", "--camera", "vivid-001", "--mic", "none", "--quality", preset, "--max", "1"], home: home.path)
            #expect(byName.code == 0, "\(byName.err)")
            #expect(byName.err.contains("from /dev/video1 (vivid)"))
            let ambiguous = try VidrecProcess.run(["start", "--camera", "vivid", "--mic", "none", "--max", "1"], home: home.path)
            #expect(ambiguous.code == 69)
            #expect(ambiguous.err == "Error: 'vivid' matches several cameras (/dev/video0, /dev/video1); give its path or index\n")
        }

        /// YUYV's colour bars, recorded by the first format's test and compared by each.
        private static let yuyvBars = Mutex<[[Int]]?>(nil)

        /// Records one second from camera 0 in `format` and returns the colour bars of its
        /// first frame.
        private static func bars(in format: String, home: Home) throws -> [[Int]] {
            let preset = try writePreset(home)
            let result = try VidrecProcess.run(["start", "--camera", "0", "--camera-format", format, "--mic", "none",
                                                "--quality", preset, "--max", "1", "--save", "--as", format], home: home.path)
            #expect(result.code == 0, "\(format): \(result.err)")
            #expect(result.err.contains("camera mode: 320x180 \(format) 30 fps"), "\(format): \(result.err)")
            let file = home.album + "/\(format).mp4"
            let frames = try Probe.decodedFrameCount(file)
            // Every slot of the second holds a frame or a drop the end line counts (a
            // loaded guest's encoder falls behind at 30 fps, more so for some formats).
            let dropped = result.err.split(separator: ",").compactMap { part -> Int? in
                let words = part.split(separator: " ")
                return words.count >= 2 && words[1] == "dropped" ? Int(words[0]) : nil
            }.first ?? 0
            #expect(frames + dropped >= 29 && frames >= 15, "\(format): \(frames) frames: \(result.err)")
            return try Probe.barColours(file, width: 320, height: 180)
        }

        /// Each pixel format the camera offers goes through vidrec's conversion; the colour
        /// bars must come out the same as from YUYV (a swapped plane shows at once). One
        /// format a test case, each within the time limit on a busy machine (all seven in
        /// one test took over three minutes in the VM beside two busy loops).
        @Test(arguments: ["UYVY", "NV12", "YU12", "YV12", "RGB3", "BGR3"])
        func everySupportedPixelFormatRecordsTheSameColoursAsYUYV(format: String) throws {
            let home = try Home()
            let reference: [[Int]]
            if let cached = Self.yuyvBars.withLock({ $0 }) {
                reference = cached
            } else {
                reference = try Self.bars(in: "YUYV", home: home)
                Self.yuyvBars.withLock { $0 = reference }
            }
            #expect(reference.count == 8)
            let bars = try Self.bars(in: format, home: home)
            for (index, (a, b)) in zip(reference, bars).enumerated() {
                #expect(zip(a, b).allSatisfy { abs($0 - $1) <= 24 }, "\(format) bar \(index): \(b) vs YUYV \(a)")
            }
        }

        @Test func aPresetTheCameraCannotMeetIsNegotiatedAndReported() throws {
            let home = try Home()
            let preset = try Self.writePreset(home, Self.smallPreset.replacingOccurrences(of: "\"width\": 320, \"height\": 180", with: "\"width\": 1280, \"height\": 720"))
            let result = try VidrecProcess.run(["start", "--camera", "0", "--mic", "none", "--quality", preset, "--max", "1"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("camera mode: 640x360 YUYV 30 fps → scaled to 1280x720"), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let video = try #require(try Probe.streams(file).first)
            #expect(video.width == 1280 && video.height == 720 && video.frameRate == "30/1")
        }

        /// vivid offers 640x480 at up to 25 fps, and 640x360 at 30: the 640x480 preset
        /// records 4:3 pictures at the camera's real 25 fps, never 16:9 ones stretched.
        @Test func thePresetsAspectRatioWinsOverAFasterModeAndTheMovieTakesTheCamerasRate() throws {
            let home = try Home()
            let result = try VidrecProcess.run(["start", "--camera", "0", "--mic", "none", "--quality", "640x480", "--max", "2"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("camera mode: 640x480 YUYV 25 fps (the preset's 30 fps is not offered at this size; recording at 25 fps)"), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let video = try #require(try Probe.streams(file).first)
            #expect(video.width == 640 && video.height == 480 && video.frameRate == "25/1")
            let sidecar = try home.sidecar()
            #expect(sidecar["cameraMode"] as? String == "640x480 YUYV 25 fps")
            #expect(sidecar["frameRate"] as? String == "25")
            let frames = try Probe.decodedFrameCount(file)
            let dropped = try #require(sidecar["droppedFrames"] as? Int), repeated = try #require(sidecar["repeatedFrames"] as? Int)
            #expect(frames - repeated + dropped == 50, "a 25 fps grid with no holes: \(frames) frames, \(repeated) repeated, \(dropped) dropped")
        }

        /// vivid has no square mode: a 1:1 preset takes the middle of its 16:9 picture
        /// (crop, the default), shows all of it between black bars (pad), or squeezes it
        /// (stretch). vivid's colour bars are eight columns of known colours.
        @Test func aPictureOfAnotherAspectIsCroppedByDefaultAndPaddedOrStretchedWhenAsked() throws {
            let home = try Home()
            let square = try Self.writePreset(home, Self.smallPreset.replacingOccurrences(of: "\"width\": 320, \"height\": 180", with: "\"width\": 360, \"height\": 360"))
            let wide = home.path + "/wide.json"
            try Self.smallPreset.replacingOccurrences(of: "\"width\": 320, \"height\": 180", with: "\"width\": 640, \"height\": 360")
                .write(toFile: wide, atomically: true, encoding: .utf8)
            func record(_ preset: String, _ fit: String, as name: String) throws -> String {
                let result = try VidrecProcess.run(["start", "--camera", "0", "--mic", "none", "--quality", preset, "--fit", fit,
                                                    "--max", "1", "--save", "--as", name], home: home.path)
                #expect(result.code == 0, "\(fit): \(result.err)")
                return result.err
            }
            _ = try record(wide, "crop", as: "reference")
            let reference = try Probe.rgbFrame(home.album + "/reference.mp4", width: 640, height: 360)
            let crop = try record(square, "crop", as: "crop")
            #expect(crop.contains("camera mode: 640x360 YUYV 30 fps → cropped to fill 360x360"), "\(crop)")
            _ = try record(square, "pad", as: "pad")
            _ = try record(square, "stretch", as: "stretch")
            let y = 360 * 7 / 10
            // The reference's colour at source column x, below vivid's text.
            let at = { (x: Int) in Probe.meanColour(reference, width: 640, x: x - 4, y: y, w: 8, h: 8) }
            // Crop: output column x shows source column 140 + x.
            let cropped = try Probe.rgbFrame(home.album + "/crop.mp4", width: 360, height: 360)
            for x in [10, 180, 350] {
                let seen = Probe.meanColour(cropped, width: 360, x: x - 4, y: y, w: 8, h: 8)
                #expect(Probe.alike(seen, at(140 + x)), "crop column \(x): \(seen), want \(at(140 + x))")
            }
            #expect(!Probe.alike(at(20), at(150)), "the first two bars differ, so the check can fail")
            // Stretch: output column x shows source column x × 640 / 360.
            let stretched = try Probe.rgbFrame(home.album + "/stretch.mp4", width: 360, height: 360)
            let seen = Probe.meanColour(stretched, width: 360, x: 6, y: y, w: 8, h: 8)
            #expect(Probe.alike(seen, at(18)), "stretch column 10: \(seen), want \(at(18))")
            // Pad: black above and below a 360x202 picture.
            let padded = try Probe.rgbFrame(home.album + "/pad.mp4", width: 360, height: 360)
            let bar = Probe.meanColour(padded, width: 360, x: 0, y: 10, w: 360, h: 50)
            #expect(bar.allSatisfy { $0 < 24 }, "black bar at the top: \(bar)")
            let bottom = Probe.meanColour(padded, width: 360, x: 0, y: 300, w: 360, h: 50)
            #expect(bottom.allSatisfy { $0 < 24 }, "black bar at the bottom: \(bottom)")
            let middle = Probe.meanColour(padded, width: 360, x: 6, y: 78 + 202 * 7 / 10, w: 8, h: 8)
            #expect(Probe.alike(middle, at(18)), "pad column 10: \(middle), want \(at(18))")
        }

        @Test(arguments: [
            (["--camera", "/dev/null"], "Error: /dev/null is not a camera: it does not answer VIDIOC_QUERYCAP (Inappropriate ioctl for device); 'vidrec devices' lists the cameras"),
            (["--camera", "/etc/hostname"], "Error: /etc/hostname is not a camera: it is not a device; 'vidrec devices' lists the cameras"),
            (["--camera", "/dev/video9"], "Error: camera /dev/video9 not found (No such file or directory); 'vidrec devices' lists the cameras"),
            (["--camera", "7"], "Error: there is no camera 7; 'vidrec devices' lists them: 0: /dev/video0 (vivid), 1: /dev/video1 (vivid)"),
            (["--camera", "logitech"], "Error: no camera matches 'logitech'; 'vidrec devices' lists them: 0: /dev/video0 (vivid), 1: /dev/video1 (vivid)"),
            // The format is checked before the microphone is opened (ALSA's `default`,
            // PipeWire's here, cannot be reached outside a session).
            (["--camera", "0", "--camera-format", "MJPG"], "Error: camera /dev/video0 does not offer pixel format MJPG;"),
            (["--camera", "0", "--mic", "hw:7,0"], "Error: microphone 'hw:7,0' not found ("),
            (["--camera", "0", "--mic", "9"], "Error: microphone '9' not found (there is no microphone 9); 'vidrec devices' lists them: 0: hw:0,0 (Loopback)"),
        ])
        func deviceErrorsNameTheDeviceAndTheFix(arguments: [String], message: String) throws {
            let home = try Home()
            let result = try VidrecProcess.run(["start"] + arguments + ["--max", "1"], home: home.path)
            #expect(result.code == 69)
            #expect(result.err.hasPrefix(message), "\(result.err)")
            #expect(result.err.split(separator: "\n").count == 1)
            #expect(home.files(in: home.pending, ending: "").isEmpty, "nothing is left pending")
        }

        /// Recording asks the camera only for the sizes and rates of the formats vidrec
        /// reads; a format it lacks is still refused naming every format it offers.
        @Test func aMissingFormatIsRefusedNamingEveryFormatTheCameraOffers() throws {
            let home = try Home()
            let result = try VidrecProcess.run(["start", "--camera", "0", "--camera-format", "MJPG", "--mic", "none", "--max", "1"],
                                               home: home.path)
            #expect(result.code == 69)
            let offered = try #require(result.err.split(separator: "; it offers ").last).split(separator: " (see")[0]
            let formats = Set(offered.split(separator: ", ").map(String.init))
            #expect(formats.isSuperset(of: ["YUYV", "YVYU", "UYVY", "NV12", "RGB3"]), "\(result.err)")
            #expect(!formats.contains("MJPG"))
        }

        @Test func aUserOutsideTheVideoGroupIsToldHowToJoinIt() throws {
            let home = try Home()
            chmod(home.path, 0o777)
            // The user 'nobody' may not be able to reach the checkout (a clone under
            // /root, say): give it its own copy of the binary and the presets.
            let binary = home.path + "/vidrec", presets = home.path + "/presets"
            try FileManager.default.copyItem(atPath: VidrecProcess.binary, toPath: binary)
            try FileManager.default.copyItem(atPath: VidrecProcess.presets, toPath: presets)
            chmod(presets, 0o755)
            let result = try Probe.tool("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c",
                                                    "\(binary) start --camera /dev/video0 --mic none --max 1 2>&1; echo status=$?"],
                                        environment: ["HOME": home.path, "PATH": "/usr/bin:/bin", "VIDREC_PRESETS_DIR": presets])
            let text = String(decoding: result, as: UTF8.self)
            #expect(text == "Error: permission denied for /dev/video0; add yourself to the 'video' group (sudo usermod -aG video $USER), then log in again\nstatus=69\n")
        }

        @Test func aSecondRecordingOnABusyCameraIsRefusedAndTheFirstIsUnaffected() throws {
            let home = try Home(), other = try Home()
            let preset = try Self.writePreset(home)
            // The first records until it is stopped, however long the others take.
            let first = try VidrecProcess(["start", "--camera", "0", "--mic", "none", "--quality", preset], home: home.path)
            #expect(first.waitForError(containing: "vidrec: recording"))
            let second = try VidrecProcess.run(["start", "--camera", "0", "--mic", "none", "--quality", preset, "--max", "1"], home: other.path)
            #expect(second.code == 69)
            #expect(second.err.contains("/dev/video0 is in use by another program"), "\(second.err)")
            // The same user's second vidrec names the running recording.
            let mine = try VidrecProcess.run(["start", "--camera", "0", "--mic", "none", "--quality", preset, "--max", "1"], home: home.path)
            #expect(mine.code == 75)
            #expect(mine.err.hasPrefix("Error: camera /dev/video0 is already being recorded by vidrec: recording "), "\(mine.err)")
            #expect(mine.err.contains("(pid \(first.process.processIdentifier), started "))
            #expect(first.process.isRunning, "the first is still recording")
            let stop = try VidrecProcess.run(["stop"], home: home.path)
            #expect(stop.code == 0, "\(stop.err)")
            let result = first.wait()
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("vidrec: stopped: "))
            #expect(try home.sidecar()["state"] as? String == "finished")
        }
    }
}
