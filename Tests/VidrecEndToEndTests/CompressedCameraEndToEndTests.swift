import Foundation
import Testing

extension EndToEndTests {
    /// Cameras that send what USB webcams send: the test camera's MJPEG and H.264
    /// variants (`test:mjpeg`, `test:h264`, a two-second loop compressed when opened),
    /// recorded by copying the camera's stream or by decoding and encoding it.
    @Suite struct CompressedCameraEndToEndTests {
        /// The frame numbers the test camera's two-second loop shows at `rate` fps.
        static func loopNumbers(_ count: Int, rate: Int) -> [Int] { (0..<count).map { $0 % (2 * rate) } }

        @Test func anH264CameraIsCopiedFrameForFrameWithItsKeyframesAndExactMax() throws {
            let home = try Home()
            let result = try VidrecProcess.run(["start", "--camera", "test:h264", "--mic", "test", "--quality", "low", "--max", "3"],
                                               home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("camera mode: 640x360 H264 15 fps → copied"), "\(result.err)")
            #expect(result.err.contains("H.264 copied from the camera"), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let streams = try Probe.streams(file)
            #expect(streams.map(\.codec) == ["h264", "aac"])
            #expect(streams[0].width == 640 && streams[0].height == 360 && streams[0].frameRate == "15/1")
            // The camera's own encoder (the test camera's: x264 ultrafast, baseline), not
            // vidrec's (veryfast, High profile).
            let profile = try Probe.videoProfile(file)
            #expect(profile.contains("Baseline"), "\(profile)")
            // Every frame, in order, decodable: 3 s at 15 fps.
            #expect(try Probe.frameNumbers(file, width: 640, height: 360) == Self.loopNumbers(45, rate: 15))
            let keyframes = try Probe.keyframePositions(file)
            #expect(keyframes == [0, 15, 30], "the camera's keyframes, one a second")
            #expect(abs(try Probe.formatDuration(file) - 3.0) <= 1.0 / 15)
            let samples = try Probe.decodedAudio(file)
            #expect(abs(samples.count - 144_000) <= 1024, "3 s of 48 kHz audio")
            let json = try home.sidecar()
            #expect(json["videoFrames"] as? Int == 45)
            #expect(json["undecodableFrames"] as? Int == 0)
            #expect((json["cameraMode"] as? String)?.hasSuffix("copied") == true, "\(json["cameraMode"] ?? "")")
        }

        @Test func anMJPEGCameraIsDecodedAndEncodedWithEveryFrame() throws {
            let home = try Home()
            let result = try VidrecProcess.run(["start", "--camera", "test:mjpeg", "--mic", "none", "--quality", "low", "--max", "2"],
                                               home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("camera mode: 640x360 MJPG 15 fps (the test camera)"), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            #expect(try Probe.streams(file).map(\.codec) == ["h264"])
            #expect(try Probe.frameNumbers(file, width: 640, height: 360) == Self.loopNumbers(30, rate: 15))
            // The bars' colours survive MJPEG → YUV → H.264 (white, yellow, cyan, … in RGB).
            let bars = try Probe.barColours(file, width: 640, height: 360)
            #expect(bars.count == 8)
            if bars.count == 8 {
                #expect(bars[0].allSatisfy { $0 > 200 }, "white: \(bars[0])")
                #expect(bars[1][0] > 180 && bars[1][1] > 180 && bars[1][2] < 60, "yellow: \(bars[1])")
                #expect(bars[7].allSatisfy { $0 < 40 }, "black: \(bars[7])")
            }
            #expect(try home.sidecar()["undecodableFrames"] as? Int == 0)
        }

        /// `--segment` on a copied stream: each segment starts at the camera's first
        /// keyframe at or after the planned cut (one a second here, at frames 0, 15, 30…),
        /// so 2.2 s segments (33 frames) are cut at frames 45 and 75; back to back they
        /// are the recording, and the audio is cut on the same instants.
        @Test func aCopiedStreamIsCutIntoSegmentsOnTheCamerasKeyframes() throws {
            let home = try Home()
            let result = try VidrecProcess.run(["start", "--camera", "test:h264", "--mic", "test", "--quality", "low", "--max", "6",
                                                "--video", "copy", "--segment", "2.2"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("→ copied"), "\(result.err)")
            #expect(result.err.contains("vidrec: 3 segments, "), "\(result.err)")
            let files = try home.pendingRows().compactMap { $0["file"] as? String }
            try #require(files.count == 3, "\(files)")
            var samples: [Int16] = []
            for (file, count) in zip(files, [45, 30, 15]) {
                #expect(try Probe.videoProfile(file).contains("Baseline"), "the camera's own stream")
                let keyframes = try Probe.keyframePositions(file)
                #expect(keyframes.first == 0 && keyframes.count == count / 15, "\(file): keyframes \(keyframes)")
                #expect(try Probe.decodedFrameCount(file) == count, "\(file)")
                let audio = try SegmentEndToEndTests.statedLength(file, stream: "a")
                #expect(audio == count * 3200, "\(file): \(audio) samples")
                samples += try Probe.decodedAudio(file).prefix(audio)
            }
            let list = home.path + "/segments.txt"
            try files.map { "file '\($0)'" }.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
            let joined = home.path + "/joined.mkv"
            _ = try Probe.tool("ffmpeg", ["-v", "error", "-f", "concat", "-safe", "0", "-i", list, "-map", "0:v:0", "-c", "copy", joined])
            #expect(try Probe.frameNumbers(joined, width: 640, height: 360) == Self.loopNumbers(90, rate: 15))
            let jumps = [144_000, 240_000].map { Probe.toneJump(samples, across: $0) }
            #expect(jumps.allSatisfy { $0 < 0.5 }, "the tone's jump at each cut, in samples: \(jumps)")
        }

        /// `--pre/--post` on a copied stream: the event starts at a camera keyframe before
        /// the trigger and holds the camera's own frames, every one, with its audio.
        @Test func aCopiedStreamWaitsForATriggerAndWritesTheEventFromAKeyframe() throws {
            let home = try Home()
            let recording = try VidrecProcess(["start", "--camera", "test:h264", "--mic", "test", "--quality", "low", "--video", "copy",
                                               "--pre", "1.5", "--post", "1"], home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            #expect(try recording.waitUntilRecorded(3) != nil)
            recording.signal(SIGUSR1)
            #expect(recording.waitForError(containing: "vidrec: event 1 closed: "))
            recording.signal(SIGINT)
            let ended = recording.wait()
            #expect(ended.code == 0, "\(ended.err)")
            #expect(ended.err.contains("→ copied"), "\(ended.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first, "\(ended.err)")
            #expect(try Probe.videoProfile(file).contains("Baseline"), "the camera's own stream")
            #expect(try Probe.keyframePositions(file).first == 0)
            let numbers = try Probe.frameNumbers(file, width: 640, height: 360)
            let first = try #require(numbers.first)
            #expect(first % 15 == 0, "the event starts at the camera's keyframe: \(numbers)")
            #expect(numbers == (0..<numbers.count).map { (first + $0) % 30 }, "every frame, in order: \(numbers)")
            #expect(numbers.count >= 2 * 15, "at least --pre and --post: \(numbers.count) frames")
            let streams = try Probe.streams(file)
            let video = try #require(streams.first { $0.kind == "video" }?.duration)
            let audio = try #require(streams.first { $0.kind == "audio" }?.duration)
            #expect(abs(video - audio) < 0.05, "video \(video) s, audio \(audio) s")
        }

        @Test func anH264CameraCanBeDecodedAndEncodedInstead() throws {
            let home = try Home()
            let result = try VidrecProcess.run(["start", "--camera", "test:h264", "--mic", "none", "--quality", "low", "--max", "2",
                                                "--video", "encode"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(!result.err.contains("copied"), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            #expect(try Probe.videoProfile(file) == "High")
            #expect(try Probe.frameNumbers(file, width: 640, height: 360) == Self.loopNumbers(30, rate: 15))
        }

        @Test func theMJPEGPresetKeepsACamerasMotionJPEGInMatroska() throws {
            let home = try Home()
            let result = try VidrecProcess.run(["start", "--camera", "test:mjpeg", "--mic", "test", "--quality", "mjpeg", "--max", "2"],
                                               home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("Motion JPEG copied from the camera"), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mkv").first)
            let streams = try Probe.streams(file)
            #expect(streams.map(\.codec) == ["mjpeg", "aac"])
            #expect(streams[0].width == 1280 && streams[0].height == 720)
            // (Matroska starts the video 21 ms in, after the AAC encoder's priming samples.)
            #expect(try Probe.frameNumbers(file, width: 1280, height: 720, everyPacket: true) == Self.loopNumbers(60, rate: 30))
        }

        @Test func aPhotoFromAnH264CameraIsDecodedFromItsKeyframe() throws {
            let home = try Home()
            let taken = try VidrecProcess.run(["snap", "--camera", "test:h264", "--size", "640x360"], home: home.path)
            #expect(taken.code == 0, "\(taken.err)")
            let rows = try home.pendingRows()
            let file = try #require(rows.first?["file"] as? String)
            #expect(try Probe.streams(file).first?.codec == "mjpeg")
            // The settled frame (the sixth), decoded through the five before it.
            #expect(Probe.frameNumber(grey: try Probe.greyFrame(file, index: 0), width: 640, height: 360) == 5)
        }

        @Test func copyingIsRefusedWhereItCannotBeDone() throws {
            let home = try Home()
            let cases: [([String], String)] = [
                (["--camera", "test", "--video", "copy"], "Error: the test camera sends YUYV, which cannot be stored as it is; --video copy needs --camera test:h264 or --camera test:mjpeg"),
                (["--camera", "test:h264", "--video", "copy", "--mirror"], "Error: The value 'copy' is invalid for '--video <auto|copy|encode>': the camera's stream cannot be stored as it is with --mirror, which changes every picture; use --video encode"),
                (["--camera", "test:h264", "--video", "fast"], "Error: The value 'fast' is invalid for '--video <auto|copy|encode>': use auto, copy (store the camera's own H.264 or MJPEG) or encode"),
                (["--camera", "test:h264", "--camera-format", "MJPG"], "--camera test:h264, which delivers H264 only"),
            ]
            for (arguments, message) in cases {
                let result = try VidrecProcess.run(["start", "--mic", "none", "--quality", "low", "--max", "1"] + arguments, home: home.path)
                #expect(result.code == 64, "\(arguments): \(result.err)")
                #expect(result.err.contains(message), "\(arguments): \(result.err)")
            }
            #expect(home.files(in: home.pending, ending: ".mp4").isEmpty)
        }
    }
}
