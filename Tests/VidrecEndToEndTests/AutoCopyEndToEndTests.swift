import Foundation
import Testing

extension KernelDriverTests {
    /// `auto` (the presets' `video.handling`): a camera that sends the preset's codec at
    /// its size and rate is stored as it is; one that does not is encoded. The loopback
    /// cameras (``LoopbackCamera``) offer 640x360 at 15 fps, the low preset's mode, in
    /// H.264 (the low preset's codec) and in MJPEG (not its codec), in the VM.
    @Suite struct AutoCopyEndToEndTests {
        /// Records 6 s with the low preset and nothing else asked of the picture;
        /// returns stderr, the movie's H.264 profile and the CPU seconds it took.
        static func recordSixSeconds(_ kind: LoopbackCamera.Kind) throws -> (err: String, profile: String?, cpu: Double) {
            let camera = try LoopbackCamera(kind)
            let home = try Home()
            let child = try VidrecProcess(["start", "--camera", LoopbackCamera.device, "--mic", "none", "--quality", "low"],
                                          home: home.path)
            #expect(child.waitForError(containing: "vidrec: recording"))
            let start = try #require(try child.waitUntilRecorded(0))
            let before = try #require(child.cpuSeconds)
            try child.waitUntilRecorded(start + 6)
            let cpu = try #require(child.cpuSeconds) - before
            child.signal(SIGINT)
            let result = child.wait()
            withExtendedLifetime(camera) {}
            #expect(result.code == 0, "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let video = try #require(try Probe.streams(file).first(where: { $0.kind == "video" }))
            #expect(video.codec == "h264")
            return (result.err, try Probe.videoProfile(file), cpu)
        }

        @Test func autoCopiesACameraThatOffersThePresetsModeAndEncodesOneThatDoesNot() throws {
            // The H.264 camera's own stream: baseline, as it sends it (x264 under the low
            // preset makes High).
            let copied = try Self.recordSixSeconds(.h264)
            #expect(copied.err.contains("camera mode: 640x360 H264 15 fps → copied"), "\(copied.err)")
            #expect(copied.profile == "Constrained Baseline")
            let encoded = try Self.recordSixSeconds(.mjpeg)
            #expect(encoded.err.contains("camera mode: 640x360 MJPG 15 fps") && !encoded.err.contains("→ copied"), "\(encoded.err)")
            #expect(encoded.profile != "Constrained Baseline")
            print(String(format: "auto: 6 s copied took %.2f CPU s, decoded and encoded %.2f CPU s", copied.cpu, encoded.cpu))
            #expect(copied.cpu < encoded.cpu / 4, "copied \(copied.cpu) CPU s, encoded \(encoded.cpu) CPU s")
        }
    }
}
