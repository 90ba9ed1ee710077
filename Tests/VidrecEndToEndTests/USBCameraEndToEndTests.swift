import Foundation
import Testing

extension KernelDriverTests {
    /// A USB webcam with a microphone through the kernel's own USB drivers, uvcvideo and
    /// snd-usb-audio (``USBCamera``), in the VM.
    @Suite struct USBCameraEndToEndTests {
        /// `vidrec devices` lists the webcam by its name, its node and its stable
        /// /dev/v4l/by-id name, with every mode the device describes and its controls,
        /// and its microphone by the card's name.
        @Test func devicesListsTheUSBWebcamByNameAndStableNameWithItsModesAndMicrophone() throws {
            let camera = try USBCamera()
            defer { camera.stop() }
            let home = try Home()
            let listed = try VidrecProcess.run(["devices", "--json"], home: home.path)
            #expect(listed.code == 0, "\(listed.err)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(listed.out.utf8)) as? [String: Any])
            let cameras = try #require(object["cameras"] as? [[String: Any]])
            let webcam = try #require(cameras.first { $0["path"] as? String == camera.node }, "\(cameras)")
            #expect(webcam["name"] as? String == USBCamera.name)
            #expect(webcam["driver"] as? String == "uvcvideo")
            #expect((webcam["links"] as? [String])?.first == USBCamera.byID, "\(webcam)")
            let modes = Set((webcam["modes"] as? [[String: Any]] ?? []).filter { $0["emulated"] as? Bool == false }.map {
                "\($0["format"]!) \($0["width"]!)x\($0["height"]!) \($0["frameRate"]!)"
            })
            var offered: Set<String> = []
            for size in ["640x360", "640x480", "1280x720", "1920x1080"] {
                for rate in ["30", "15", "10"] { offered.insert("MJPG \(size) \(rate)") }
            }
            for size in ["320x180", "640x360", "640x480"] {
                for rate in ["30", "15", "10"] { offered.insert("YUYV \(size) \(rate)") }
            }
            offered.formUnion(["YUYV 1280x720 10", "YUYV 1280x720 5", "YUYV 1920x1080 5"])
            #expect(modes == offered, "\(modes.symmetricDifference(offered))")
            let controls = (webcam["controls"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(controls.contains("Brightness"), "\(controls)")
            let microphones = try #require(object["microphones"] as? [[String: Any]])
            #expect(microphones.contains { $0["card"] as? String == "vidrec test webcam" && $0["rates"] as? [Int] == [48000, 48000] }, "\(microphones)")
            // The text listing names the stable path too.
            let text = try VidrecProcess.run(["devices"], home: home.path)
            #expect(text.out.contains(": \(camera.node)  \(USBCamera.name)  (uvcvideo, "), "\(text.out)")
            #expect(text.out.contains("     also: \(USBCamera.byID)\n"), "\(text.out)")
        }

        /// The low preset from the webcam named by its /dev/v4l/by-id path and its own
        /// microphone: every slot holds a frame the gadget sent, in order, or a counted
        /// drop; its microphone's stream lasts as long as the picture; and a
        /// brightness set for the recording reaches the device through UVC's control
        /// requests and is set back at the end.
        @Test func theLowPresetRecordsTheUSBWebcamByItsStableNameWithEveryFrameAndItsMicrophone() throws {
            let camera = try USBCamera(tone: 1000)
            defer { camera.stop() }
            let home = try Home()
            let result = try VidrecProcess.run(["start", "--camera", USBCamera.byID, "--mic", "hw:webcam,0", "--quality", "low",
                                                "--max", "4", "--set", "brightness=200"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("camera mode: 640x360 "), "\(result.err)")
            #expect(result.err.contains("brightness=200 (was 128); set back at the end"), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first, "\(result.err)")
            let streams = try Probe.streams(file)
            #expect(streams.map(\.codec) == ["h264", "aac"])
            #expect(streams[0].width == 640 && streams[0].height == 360 && streams[0].frameRate == "15/1")
            let sidecar = try home.sidecar()
            let numbers = try Probe.frameNumbers(file, width: 640, height: 360, everyPacket: true)
            let dropped = try #require(sidecar["droppedFrames"] as? Int)
            let repeated = sidecar["repeatedFrames"] as? Int ?? 0
            let skipped = sidecar["cameraSkippedFrames"] as? Int ?? 0
            // A starved guest's gadget sends some frames in bursts: one that finds no free
            // slot is left out and counted as such.
            let surplus = sidecar["surplusFrames"] as? Int ?? 0
            let counts = "\(dropped) dropped, \(repeated) repeated, \(skipped) skipped by the camera, \(surplus) without a slot"
            // Every slot of the 60-frame grid is a frame the camera sent or a counted
            // drop, and every frame number missing between them (or after the last, for
            // the grid's last slots: frames a starved guest's gadget had not sent by the
            // end) is a counted drop or a frame the device's sequence says it never
            // delivered. Of the drops, those the camera did not cause are few.
            #expect(numbers.count - repeated + dropped == 60, "\(numbers.count) frames, \(counts): \(numbers)")
            let distinct = numbers.enumerated().filter { $0.offset == 0 || numbers[$0.offset - 1] != $0.element }.map(\.element)
            let missing = try #require(LoopbackCamera.missingFrames(distinct), "frames out of order: \(numbers)")
            let late = max(0, 59 - (distinct.last ?? 59))
            #expect(missing + late >= dropped - repeated && missing <= dropped + skipped + surplus, "\(counts): \(numbers)")
            #expect(dropped - skipped <= 6, "\(counts): \(numbers)")
            // The microphone's stream, whole, through snd-usb-audio. Its sound is not
            // checked here: with the camera streaming on the same bus, a gadget made
            // after another in the same boot plays silence (sound alone, or the first
            // gadget, carries the tone); see docs/TESTING.md.
            let samples = try Probe.decodedAudio(file)
            #expect(abs(samples.count - 192_000) <= 1024, "\(samples.count) samples")
            // The control went to the device and came back.
            let log = camera.gadgetLog
            let set = try #require(log.range(of: "brightness 200\n"), "gadget log: \(log)")
            #expect(log[set.upperBound...].contains("brightness 128\n"), "gadget log: \(log)")
        }

        /// The presets a USB webcam is recorded with besides low, from its MJPEG modes:
        /// medium (1280x720 at 30, encoded), high (1920x1080 at 30, encoded) and mjpeg
        /// (1280x720 at 30, stored as the webcam sends it). 2 s each: every slot a frame
        /// the gadget sent, in order, or a counted drop (a TCG guest cannot decode and
        /// encode HD in real time, so the encoded presets drop, counted), and the
        /// microphone's stream as long as the picture.
        @Test(arguments: [("medium", 1280, 720, "h264"), ("high", 1920, 1080, "h264"), ("mjpeg", 1280, 720, "mjpeg")])
        func eachPresetRecordsTheUSBWebcamInItsModeWithEveryFrameAccountedFor(preset: String, width: Int, height: Int,
                                                                             codec: String) throws {
            let camera = try USBCamera(tone: 1000)
            defer { camera.stop() }
            let home = try Home()
            let result = try VidrecProcess.run(["start", "--camera", USBCamera.byID, "--mic", "hw:webcam,0", "--quality", preset,
                                                "--max", "2"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("camera mode: \(width)x\(height) MJPG 30 fps"), "\(result.err)")
            #expect(result.err.contains("→ copied") == (codec == "mjpeg"), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: codec == "mjpeg" ? ".mkv" : ".mp4").first, "\(result.err)")
            let streams = try Probe.streams(file)
            #expect(streams.map(\.codec) == [codec, "aac"])
            #expect(streams.first?.width == width && streams.first?.height == height)
            let sidecar = try home.sidecar()
            let numbers = try Probe.frameNumbers(file, width: width, height: height, everyPacket: true)
            let dropped = try #require(sidecar["droppedFrames"] as? Int)
            let repeated = sidecar["repeatedFrames"] as? Int ?? 0
            // An encoded stream holds a repeat of the picture before in a dropped slot; a
            // copied one holds the camera's packets only (a busy run: 4 of them, 56 drops).
            let held = codec == "mjpeg" ? 0 : repeated
            #expect(numbers.count - held + dropped == 60, "\(numbers.count) frames, \(repeated) repeated, \(dropped) dropped: \(numbers)")
            let distinct = numbers.enumerated().filter { $0.offset == 0 || numbers[$0.offset - 1] != $0.element }.map(\.element)
            #expect(LoopbackCamera.missingFrames(distinct) != nil, "frames out of order: \(numbers)")
            // Matroska has no edit list: its AAC decodes with the encoder's 1024 priming
            // samples in front (MP4's edit list leaves them out).
            let samples = try Probe.decodedAudio(file)
            let priming = codec == "mjpeg" ? 1024 : 0
            #expect(abs(samples.count - priming - 96000) <= 1024, "\(samples.count) samples")
        }

        /// The webcam unplugged mid-recording and plugged back in: the recording goes on
        /// in the same movie (found again by its by-id name) until stopped; the gadget's
        /// pictures before and after are each whole and in order, the gap holds the last
        /// one, and the microphone's tone runs through. (The movie runs on in real time
        /// while the webcam is gone, so the test stops it once it is back rather than
        /// race a `--max` against the guest's replug; the host's tests check `--max`.)
        @Test func aRecordingGoesOnInTheSameMovieWhenTheWebcamIsUnpluggedAndPluggedBackIn() throws {
            let camera = try USBCamera()
            defer { camera.stop() }
            let home = try Home()
            let tone = try TonePlayer(frequency: 440)
            let child = try VidrecProcess(["start", "--camera", USBCamera.byID, "--mic", "hw:Loopback,1,0", "--quality", try USBCamera.lightPreset(in: home),
                                           "--reconnect", "2m"], home: home.path)
            #expect(child.waitForError(containing: "vidrec: recording"))
            try child.waitUntilRecorded(2)
            try camera.unplug()
            #expect(child.waitForError(containing: "vidrec: camera \(USBCamera.byID) (\(USBCamera.name)) is gone: "),
                    "\(child.errorSoFar)")
            // status says so while it is gone.
            let gone = try Poll.until { () -> Double? in
                let status = try VidrecProcess.run(["status", "--json"], home: home.path)
                let rows = try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [[String: Any]]
                return rows?.first?["cameraGone"] as? Double
            }
            #expect(gone.map { $0 >= 0 } == true)
            let status = try VidrecProcess.run(["status"], home: home.path)
            #expect(status.out.contains(" (gone for "), "\(status.out)")
            try camera.replug()
            #expect(child.waitForError(containing: "is back after "), "\(child.errorSoFar)")
            guard let back = try child.waitUntilRecorded(0) else {
                Issue.record("the recording ended once the webcam was back: \(child.wait().err)")
                return
            }
            try child.waitUntilRecorded(back + 3)
            child.signal(SIGINT)
            let result = child.wait()
            withExtendedLifetime(tone) {}
            #expect(result.code == 0, "\(result.err)")
            let (sidecar, gaps) = try Self.expectTheUnplugAndAnyStallsCounted(home: home, end: result.err)
            try Self.expectTheMovieHoldsEachRunInOrderAndTheTone(home: home, sidecar: sidecar, gaps: gaps, log: result.err)
        }

        /// The unplug is the first gap. In a guest starved by a busy host the gadget's
        /// stream may stall after the replug: a camera that sends nothing for the stall
        /// timeout is waited for and reopened as one that went, and its gap says so.
        /// Every other gap must be such a stall. Returns the sidecar and its gaps.
        static func expectTheUnplugAndAnyStallsCounted(home: Home, end: String) throws -> (sidecar: [String: Any], gaps: [[String: Any]]) {
            let sidecar = try home.sidecar()
            let gaps = try #require(sidecar["cameraGaps"] as? [[String: Any]], "\(sidecar)")
            #expect(gaps.first?["reason"] as? String == "disappeared (it was unplugged or its driver stopped)", "\(gaps)")
            #expect(gaps.dropFirst().allSatisfy { $0["reason"] as? String == "it sent nothing for 5 s" }, "\(gaps)")
            #expect(gaps.allSatisfy { $0["back"] as? Bool == true } && (gaps.first?["seconds"] as? Double ?? 0) > 0, "\(gaps)")
            #expect(sidecar["cameraReturns"] as? Int == gaps.count, "\(sidecar)")
            // The gap in the end line, in local time, and in the sidecar.
            let times = gaps.count == 1 ? "once" : "\(gaps.count) times"
            #expect(end.range(of: #"camera gone (\d\d:\d\d:\d\d-\d\d:\d\d:\d\d(, )?)+ \(\d+\.\d s; \d+ frames hold its last picture; back "# + times + #"\)"#,
                               options: .regularExpression) != nil, "\(end)")
            // Opened again in the same mode: nothing new to say about it.
            #expect(end.components(separatedBy: "vidrec: camera mode: ").count == 2, "\(end)")
            return (sidecar, gaps)
        }

        /// The gadget numbers its frames from 0 at each start of streaming: a run for each
        /// time it was opened, each in order, its last number held over the gap after it;
        /// the microphone's tone runs through.
        static func expectTheMovieHoldsEachRunInOrderAndTheTone(home: Home, sidecar: [String: Any], gaps: [[String: Any]],
                                                                log: String = "") throws {
            let stalled = gaps.count > 1
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let duration = try Probe.formatDuration(file)
            try Probe.expectStreamsEndTogether(file, frameRate: Double(USBCamera.lightFrameRate), context: "\nsidecar: \(sidecar)\nvidrec said: \(log)")
            let gap = try #require(sidecar["cameraGapFrames"] as? Int, "\(sidecar)")
            let numbers = try Probe.frameNumbers(file, width: USBCamera.lightWidth, height: USBCamera.lightHeight, everyPacket: true)
            let restarts = numbers.indices.dropFirst().filter { numbers[$0] < numbers[$0 - 1] }
            let runs = zip([0] + restarts, restarts + [numbers.count]).map { Array(numbers[$0..<$1]) }
            #expect(runs.count >= 2 && runs.count <= gaps.count + 1, "opened \(gaps.count + 1) times: \(numbers)\nvidrec said: \(log)")
            // The last picture over the gap: its slots, less any the encoder dropped
            // (counted) while the guest was busy. (The slots before a stall is noticed hold
            // the last picture too, so with stalls only the least is known.)
            let held = runs.dropLast().map { run in run.reversed().prefix { $0 == run.last }.count - 1 }.reduce(0, +)
            let dropped = try #require(sidecar["droppedFrames"] as? Int)
            #expect((stalled || held <= gap) && held + dropped >= gap,
                    "the last picture over \(held) of the \(gap) slots, \(dropped) dropped: \(numbers)")
            // (A slot the camera left empty holds the frame before too.)
            func distinct(_ run: [Int]) -> [Int] { run.enumerated().filter { $0.offset == 0 || run[$0.offset - 1] != $0.element }.map(\.element) }
            #expect(runs.allSatisfy { LoopbackCamera.missingFrames(distinct($0)) != nil }, "in order: \(numbers)")
            let samples = try Probe.decodedAudio(file)
            #expect(abs(Double(samples.count) - duration * 48000) <= 1024, "\(samples.count) samples in \(duration) s")
            let heard = Probe.dominantFrequency(Array(samples[24000..<(samples.count - 24000)]), rate: 48000)
            #expect(abs(heard.hertz - 440) < 2, "the 440 Hz tone: \(heard)")
        }

        /// Unplugged and plugged back in during a segmented recording: the segments are
        /// still cut on the movie's time, the held gap counted, each whole to its frame
        /// and sample. Prints how soon the webcam streamed again after the kernel had it
        /// back (`vm/usb-camera replug` returns once udev has made its links).
        @Test func segmentsAreCutOnWhileTheWebcamIsUnpluggedAndPluggedBackIn() throws {
            let camera = try USBCamera()
            defer { camera.stop() }
            let home = try Home()
            let tone = try TonePlayer(frequency: 440)
            let child = try VidrecProcess(["start", "--camera", USBCamera.byID, "--mic", "hw:Loopback,1,0", "--quality", try USBCamera.lightPreset(in: home),
                                           "--segment", "5", "--reconnect", "2m"], home: home.path)
            #expect(child.waitForError(containing: "vidrec: recording"))
            try child.waitUntilRecorded(3)
            try camera.unplug()
            #expect(child.waitForError(containing: " is gone: "), "\(child.errorSoFar)")
            try camera.replug()
            let replugged = Date()
            #expect(child.waitForError(containing: "is back after "), "\(child.errorSoFar)")
            print(String(format: "segmentsAreCutOn…: the webcam streamed again %.2f s after the kernel had it back",
                         Date().timeIntervalSince(replugged)))
            // Past the second cut (10 s) and a second after the return, then stopped.
            let back = try #require(try child.waitUntilRecorded(0))
            try child.waitUntilRecorded(max(back + 1, 11))
            child.signal(SIGINT)
            let result = child.wait()
            withExtendedLifetime(tone) {}
            #expect(result.code == 0, "\(result.err)")
            let files = try home.pendingRows().compactMap { $0["file"] as? String }
            try #require(files.count >= 3, "\(files)")
            #expect(result.err.contains("vidrec: \(files.count) segments, "), "\(result.err)")
            // Every slot of the whole segments: a frame, or one the encoder dropped
            // (counted) while the guest was busy.
            let whole = files.count - 1
            let decoded = try files.prefix(whole).map { try Probe.decodedFrameCount($0) }.reduce(0, +)
            let sidecar = try home.sidecar()
            let dropped = try #require(sidecar["droppedFrames"] as? Int)
            let slots = 5 * USBCamera.lightFrameRate * whole
            #expect(decoded <= slots && decoded + dropped >= slots, "\(decoded) decoded, \(dropped) dropped")
            // Back once from the unplug, and from any stall a starved guest caused since
            // (as in the test above).
            let gaps = try #require(sidecar["cameraGaps"] as? [[String: Any]], "\(sidecar)")
            #expect(gaps.first?["reason"] as? String == "disappeared (it was unplugged or its driver stopped)", "\(gaps)")
            #expect(gaps.dropFirst().allSatisfy { $0["reason"] as? String == "it sent nothing for 5 s" }, "\(gaps)")
            #expect(sidecar["cameraReturns"] as? Int == gaps.count, "\(sidecar)")
            let lengths = try files.map { try EndToEndTests.SegmentEndToEndTests.statedLength($0, stream: "a") }
            #expect(lengths.prefix(whole).allSatisfy { $0 == 240_000 }, "5 s of sound in each: \(lengths)")
            // And 5 s of pictures from time 0, however many frames the busy guest dropped
            // at the cuts (their slots hold the picture before).
            let pictures = try files.prefix(whole).map { try Probe.streams($0).first { $0.kind == "video" } }
            #expect(pictures.allSatisfy { $0?.startTime == 0 && abs(($0?.duration ?? 0) - 5) < 0.001 },
                    """
                    \(pictures.map { ($0?.startTime, $0?.duration) })
                    sidecar: \(sidecar)
                    \(files.prefix(whole).map { Probe.describeVideoPackets($0, frameRate: Double(USBCamera.lightFrameRate)) }.joined(separator: "\n"))
                    """)
            #expect(try Probe.decodedFrameCount(files[whole]) > 0, "the last segment has pictures")
        }
    }
}
