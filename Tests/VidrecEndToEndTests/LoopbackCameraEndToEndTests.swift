import Foundation
import Testing

extension KernelDriverTests {
    /// Cameras that send MJPEG or H.264, as real webcams do: v4l2loopback fed by ffmpeg
    /// (``LoopbackCamera``), in the VM.
    /// The feeder writes unevenly (the guest runs under TCG, beside other processes):
    /// every frame it delivers gets a slot, and every frame missing from the file is
    /// one the end line and the sidecar count as dropped (or the camera as skipped).
    @Suite struct LoopbackCameraEndToEndTests {
        static let size = (width: LoopbackCamera.width, height: LoopbackCamera.height)

        /// Records `seconds` from the loopback camera into `home`; returns the file,
        /// stderr and sidecar.
        static func record(_ extra: [String], home: Home, seconds: Int = 4) throws -> (file: String, err: String, sidecar: [String: Any]) {
            let result = try VidrecProcess.run(["start", "--camera", LoopbackCamera.device, "--mic", "none",
                                                "--quality", "low", "--max", "\(seconds)"] + extra, home: home.path)
            #expect(result.code == 0, "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first, "\(result.err)")
            return (file, result.err, try home.sidecar())
        }

        /// Every frame in the file is the camera's, in order, and every frame missing is
        /// one the sidecar counts as dropped. Returns how many of the missing frames the
        /// camera never delivered (its own sequence numbers skipped them) or took with it
        /// (the H.264 frames after a lost one, up to the next keyframe).
        @discardableResult
        static func expectEveryDeliveredFrame(_ file: String, sidecar: [String: Any], slots: Int) throws -> Int {
            let numbers = try Probe.frameNumbers(file, width: size.width, height: size.height, everyPacket: true)
            let missing = try #require(LoopbackCamera.missingFrames(numbers), "frames out of order: \(numbers)")
            let dropped = try #require(sidecar["droppedFrames"] as? Int)
            // Frames the device itself says it skipped (v4l2loopback's sequence numbers
            // count every frame written; a reader that starts between two writes misses
            // one) were never delivered.
            let skipped = sidecar["cameraSkippedFrames"] as? Int ?? 0
            // Frames that found no free slot (the feeder wrote a burst longer than the
            // timeline holds back for, or wrote the first frame late, so that the next
            // ones look early) are left out and counted as such.
            let surplus = sidecar["surplusFrames"] as? Int ?? 0
            // A copied H.264 stream that lost a frame leaves the frames after it out, up to
            // the next keyframe (the picture before lasts over their slots); only a lost
            // frame may cause that.
            let leftOut = sidecar["undecodableFrames"] as? Int ?? 0
            // One frame more may be missing right after the first: a first frame written
            // late (the feeder catching up as the reader starts) makes the next look
            // simultaneous with it, and that one is left out uncounted; the first frame's
            // time is the movie's origin and is not estimated again (a known gap, in
            // issue 25's notes).
            let uncounted = numbers.count > 1 && LoopbackCamera.missingFrames(Array(numbers.prefix(2)))! > 0 ? 1 : 0
            let counts = "\(dropped) dropped, \(skipped) skipped by the camera, \(surplus) without a slot, \(leftOut) left out"
            #expect(numbers.count + dropped + leftOut == slots, "\(numbers.count) frames, \(counts): \(numbers)")
            #expect(leftOut == 0 || dropped + skipped + surplus > 0, "\(counts): \(numbers)")
            #expect(missing >= dropped && missing <= dropped + skipped + surplus + leftOut + uncounted,
                    "frames lost without a trace (\(counts)): \(numbers)")
            #expect(dropped + surplus <= slots / 10, "\(counts): \(numbers)")
            return min(missing, skipped + leftOut)
        }

        static func expectColours(_ file: String) throws {
            let rgb = try Probe.rgbFrame(file, width: size.width, height: size.height)
            let left = Probe.meanColour(rgb, width: size.width, x: 60, y: 60, w: 160, h: 160)
            let right = Probe.meanColour(rgb, width: size.width, x: 420, y: 60, w: 160, h: 160)
            #expect(Probe.alike(left, LoopbackCamera.red, tolerance: 40), "left half \(left)")
            #expect(Probe.alike(right, LoopbackCamera.blue, tolerance: 40), "right half \(right)")
        }

        /// Records the camera's own stream with `--video copy`: the mode line says so, the
        /// movie holds the camera's codec, every frame delivered and the picture's colours.
        /// `check` looks at the movie for what is particular to the camera.
        static func recordCopied(_ kind: LoopbackCamera.Kind, home: Home, mode: String, codec: String,
                                 check: (String) throws -> Void) throws {
            let camera = try LoopbackCamera(kind)
            let (file, err, sidecar) = try record(["--video", "copy"], home: home)
            #expect(err.contains("camera mode: 640x360 \(mode) 15 fps → copied"), "\(err)")
            let video = try #require(try Probe.streams(file).first(where: { $0.kind == "video" }))
            #expect(video.codec == codec)
            try check(file)
            let notDelivered = try expectEveryDeliveredFrame(file, sidecar: sidecar, slots: 60)
            try expectColours(file)
            try expectAsManyFramesAsFFmpegReads(file, kind: kind, home: home, notDelivered: notDelivered)
            withExtendedLifetime(camera) {}
        }

        /// The same camera read by `ffmpeg -f v4l2 … -c copy` for as many frames as vidrec
        /// has slots: vidrec's file holds as many of the camera's frames, give or take
        /// two (the two programs start at different instants of the uneven feeder), and
        /// but for the `notDelivered` frames the device reported it never gave vidrec (a
        /// guest stalled on a busy machine, which ffmpeg's later run may not meet).
        static func expectAsManyFramesAsFFmpegReads(_ file: String, kind: LoopbackCamera.Kind, home: Home,
                                                    notDelivered: Int) throws {
            let copy = home.path + "/ffmpeg-copy.mkv"
            _ = try Probe.tool("ffmpeg", ["-v", "error", "-f", "v4l2", "-input_format", kind == .h264 ? "h264" : "mjpeg",
                                          "-video_size", "\(size.width)x\(size.height)", "-framerate", "\(LoopbackCamera.rate)",
                                          "-i", LoopbackCamera.device, "-c", "copy", "-frames:v", "60", copy])
            let theirs = Set(try Probe.frameNumbers(copy, width: size.width, height: size.height, everyPacket: true))
            let ours = Set(try Probe.frameNumbers(file, width: size.width, height: size.height, everyPacket: true))
            #expect(ours.count + notDelivered >= theirs.count - 2,
                    "vidrec kept \(ours.count) of the camera's frames (\(notDelivered) never delivered), ffmpeg read \(theirs.count)")
        }

        @Test func anMJPEGCameraIsCopiedWithEveryFrameItDelivers() throws {
            try Self.recordCopied(.mjpeg, home: try Home(), mode: "MJPG", codec: "mjpeg") { _ in }
        }

        @Test func anMJPEGCameraIsDecodedAndEncodedWithEveryFrameItDelivers() throws {
            let camera = try LoopbackCamera(.mjpeg)
            let home = try Home()
            let (file, err, sidecar) = try Self.record([], home: home)
            withExtendedLifetime(camera) {}
            #expect(err.contains("camera mode: 640x360 MJPG 15 fps"), "\(err)")
            let video = try #require(try Probe.streams(file).first(where: { $0.kind == "video" }))
            #expect(video.codec == "h264")
            #expect(sidecar["undecodableFrames"] as? Int == 0)
            // Frames the guest's encoder could not keep up with are dropped and counted
            // too: the check is that none is lost without a trace.
            try Self.expectEveryDeliveredFrame(file, sidecar: sidecar, slots: 60)
            try Self.expectColours(file)
        }

        @Test func anH264CameraIsCopiedFromItsFirstKeyframe() throws {
            try Self.recordCopied(.h264, home: try Home(), mode: "H264", codec: "h264") { file in
                #expect(try Probe.videoProfile(file) == "Constrained Baseline")
                let keyframes = try Probe.keyframePositions(file)
                #expect(keyframes.first == 0, "the recording starts at an IDR frame: \(keyframes)")
                #expect(keyframes.count >= 3, "the camera's keyframe every second: \(keyframes)")
            }
        }

        /// A node that sends only 8-bit raw Bayer (as a Raspberry Pi's CSI receiver or a
        /// laptop's IPU nodes do): recordable through libv4l's own conversion, which
        /// `vidrec devices` shows; the picture's colours and every frame come through.
        @Test func aRawBayerNodeIsRecordedThroughLibv4lsConversion() throws {
            let camera = try LoopbackCamera(.bayer)
            let home = try Home()
            let devices = try VidrecProcess.run(["devices", "--json"], home: home.path)
            let listing = try #require(try JSONSerialization.jsonObject(with: Data(devices.out.utf8)) as? [String: Any])
            let node = try #require((listing["cameras"] as? [[String: Any]])?.first { $0["path"] as? String == LoopbackCamera.device },
                                    "\(devices.out)")
            let modes = node["modes"] as? [[String: Any]] ?? []
            #expect(modes.contains { $0["format"] as? String == "RGGB" && $0["emulated"] as? Bool == false }, "\(modes)")
            #expect(modes.contains { $0["emulated"] as? Bool == true }, "libv4l converts it: \(modes)")
            #expect(node["unusable"] is NSNull || node["unusable"] == nil, "\(node)")
            let (file, err, sidecar) = try Self.record([], home: home)
            withExtendedLifetime(camera) {}
            #expect(err.contains("camera mode: 640x360"), "\(err)")
            try Self.expectEveryDeliveredFrame(file, sidecar: sidecar, slots: 60)
            try Self.expectColours(file)
        }

        /// `--segment` on the H.264 camera's copied stream: every segment starts at one of
        /// the camera's keyframes (it has no control to force one, so the cut waits for
        /// its own, one a second), and back to back they hold the camera's frames in order.
        @Test func anH264CameraIsCopiedIntoSegmentsCutOnItsKeyframes() throws {
            let camera = try LoopbackCamera(.h264)
            let home = try Home()
            let (_, err, _) = try Self.record(["--video", "copy", "--segment", "2"], home: home, seconds: 5)
            withExtendedLifetime(camera) {}
            #expect(err.contains("camera mode: 640x360 H264 15 fps → copied"), "\(err)")
            let files = try home.pendingRows().compactMap { $0["file"] as? String }
            #expect(files.count >= 2 && files.count <= 3, "\(files)\n\(err)")
            var total = 0.0
            for file in files {
                let keyframes = try Probe.keyframePositions(file)
                #expect(keyframes.first == 0, "\(file) starts at a keyframe: \(keyframes)")
                total += try Probe.formatDuration(file)
            }
            #expect(abs(total - 5) <= 0.2, "the segments last \(total) s in all")
            let list = home.path + "/segments.txt"
            try files.map { "file '\($0)'" }.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
            let joined = home.path + "/joined.mkv"
            _ = try Probe.tool("ffmpeg", ["-v", "error", "-f", "concat", "-safe", "0", "-i", list, "-map", "0:v:0", "-c", "copy", joined])
            let numbers = try Probe.frameNumbers(joined, width: Self.size.width, height: Self.size.height, everyPacket: true)
            #expect(LoopbackCamera.missingFrames(numbers) != nil, "the camera's frames in order: \(numbers)")
            try Self.expectColours(files[files.count - 1])
        }
    }
}
