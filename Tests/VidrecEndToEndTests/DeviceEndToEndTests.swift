import Foundation
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
            // Every slot of the 45-frame grid is either a frame or a counted drop.
            let frames = try Probe.decodedFrameCount(file)
            let dropped = try #require(home.sidecar()["droppedFrames"] as? Int)
            #expect(frames + dropped == 45, "\(frames) frames + \(dropped) dropped")
            #expect(dropped <= 3)
            #expect(abs(try Probe.formatDuration(file) - 3.0) <= 1.0 / 15)
            let samples = try Probe.decodedAudio(file)
            #expect(abs(samples.count - 144_000) <= 1024)
            let heard = Probe.dominantFrequency(Array(samples[24000..<72000]), rate: 48000)
            #expect(abs(heard.hertz - 440) < 2, "the 440 Hz tone: \(heard)")
            #expect(heard.share > 0.8)
            // The tone plays throughout, so sound starts with the first frame: no more than
            // one frame (3200 samples) of padding at the start.
            let firstSound = samples.firstIndex { abs(Int($0)) > 2000 } ?? samples.count
            #expect(firstSound <= 3200, "audio starts \(firstSound) samples after the first frame")
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

        /// Each pixel format the camera offers goes through vidrec's conversion; the colour
        /// bars must come out the same as from YUYV (a swapped plane shows at once).
        @Test func everySupportedPixelFormatRecordsTheSameColours() throws {
            let home = try Home()
            let preset = try Self.writePreset(home)
            var reference: [[Int]] = []
            for format in ["YUYV", "UYVY", "NV12", "YU12", "YV12", "RGB3", "BGR3"] {
                let result = try VidrecProcess.run(["start", "--camera", "0", "--camera-format", format, "--mic", "none",
                                                    "--quality", preset, "--max", "1", "--save", "--as", format], home: home.path)
                #expect(result.code == 0, "\(format): \(result.err)")
                #expect(result.err.contains("camera mode: 320x180 \(format) 30 fps"), "\(format): \(result.err)")
                let file = home.album + "/\(format).mp4"
                let frames = try Probe.decodedFrameCount(file)
                #expect(frames >= 25, "\(format): \(frames) frames")
                let bars = try Probe.barColours(file, width: 320, height: 180)
                if reference.isEmpty { reference = bars; continue }
                for (index, (a, b)) in zip(reference, bars).enumerated() {
                    #expect(zip(a, b).allSatisfy { abs($0 - $1) <= 24 }, "\(format) bar \(index): \(b) vs YUYV \(a)")
                }
            }
            #expect(reference.count == 8)
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

        @Test(arguments: [
            (["--camera", "/dev/null"], "Error: /dev/null is not a camera: it does not answer VIDIOC_QUERYCAP (Inappropriate ioctl for device); 'vidrec devices' lists the cameras"),
            (["--camera", "/etc/hostname"], "Error: /etc/hostname is not a camera: it is not a device; 'vidrec devices' lists the cameras"),
            (["--camera", "/dev/video9"], "Error: camera /dev/video9 not found (No such file or directory); 'vidrec devices' lists the cameras"),
            (["--camera", "7"], "Error: there is no camera 7; 'vidrec devices' lists them: 0: /dev/video0 (vivid), 1: /dev/video1 (vivid)"),
            (["--camera", "logitech"], "Error: no camera matches 'logitech'; 'vidrec devices' lists them: 0: /dev/video0 (vivid), 1: /dev/video1 (vivid)"),
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

        @Test func aUserOutsideTheVideoGroupIsToldHowToJoinIt() throws {
            let home = try Home()
            chmod(home.path, 0o777)
            let result = try Probe.tool("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c",
                                                    "\(VidrecProcess.binary) start --camera /dev/video0 --mic none --max 1 2>&1; echo status=$?"],
                                        environment: ["HOME": home.path, "PATH": "/usr/bin:/bin"])
            let text = String(decoding: result, as: UTF8.self)
            #expect(text == "Error: permission denied for /dev/video0: add yourself to the 'video' group (sudo usermod -aG video $USER), then log in again\nstatus=69\n")
        }

        @Test func aSecondRecordingOnABusyCameraIsRefusedAndTheFirstIsUnaffected() throws {
            let home = try Home(), other = try Home()
            let preset = try Self.writePreset(home)
            let first = try VidrecProcess(["start", "--camera", "0", "--mic", "none", "--quality", preset, "--max", "4"], home: home.path)
            #expect(first.waitForError(containing: "vidrec: recording", timeout: 60))
            let second = try VidrecProcess.run(["start", "--camera", "0", "--mic", "none", "--quality", preset, "--max", "1"], home: other.path)
            #expect(second.code == 69)
            #expect(second.err.contains("/dev/video0 is in use by another program"), "\(second.err)")
            // The same user's second vidrec names the running recording.
            let mine = try VidrecProcess.run(["start", "--camera", "0", "--mic", "none", "--quality", preset, "--max", "1"], home: home.path)
            #expect(mine.code == 75)
            #expect(mine.err.hasPrefix("Error: camera /dev/video0 is already being recorded by vidrec: recording "), "\(mine.err)")
            #expect(mine.err.contains("(pid \(first.process.processIdentifier), started "))
            let result = first.wait()
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("reached maximum duration (4 s)"))
        }
    }
}
