import Foundation
import Glibc
import Testing

extension KernelDriverTests {
    /// Retention while recording continuously: on a small file system, the `--min-free`
    /// floor removes the oldest segments vidrec saved so that recording goes on. In the
    /// VM, where a test may mount a small tmpfs.
    @Suite struct RetentionDeviceEndToEndTests {
        /// Lossless x264 of vivid's noise pattern: about a megabyte a second, so that a
        /// few megabytes fill in seconds.
        static let heavyPreset = """
        {"width": 320, "height": 180, "frameRate": 15, "container": "mp4",
         "video": {"codec": "libx264", "speed": "ultrafast", "crf": 0, "keyframeInterval": 15, "pixelFormat": "yuv420p"}}
        """

        static func freeBytes(_ path: String) -> Int64 {
            var info = statvfs()
            guard statvfs(path, &info) == 0 else { return -1 }
            return Int64(info.f_bavail) * Int64(info.f_frsize)
        }

        @Test func atTheFloorTheOldestSavedSegmentsMakeRoomAndRecordingGoesOn() throws {
            let home = try Home()
            let disk = home.path + "/small"
            try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
            _ = try Probe.tool("/bin/mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", disk])
            defer { _ = try? Probe.tool("/bin/umount", ["-l", disk]) }
            let preset = home.path + "/heavy.json"
            try Self.heavyPreset.write(toFile: preset, atomically: true, encoding: .utf8)
            let floor: Int64 = 2 << 20
            let capacity = Self.freeBytes(disk) - floor
            // vivid's first webcam shows noise, which no encoder can make small.
            let noise = try SwitchDeviceEndToEndTests.testPattern(home, camera: "0", named: "Noise")
            _ = try Probe.tool("v4l2-ctl", ["-d", "/dev/video0", "-c", "test_pattern=\(noise.value)"])
            defer { _ = try? Probe.tool("v4l2-ctl", ["-d", "/dev/video0", "-c", "test_pattern=\(noise.original)"]) }

            let recording = try VidrecProcess(["start", "--camera", "0", "--mic", "none", "--quality", preset, "--max", "40",
                                               "--segment", "1", "--save", "--min-free", "2M", "--album", disk + "/album"],
                                              home: home.path, environment: ["XDG_STATE_HOME": disk + "/state"])
            // Free space, sampled while the recording runs (a measurement, not a wait).
            var lowest = Int64.max
            while recording.process.isRunning {
                lowest = min(lowest, Self.freeBytes(disk))
                usleep(20_000)
            }
            let ended = recording.wait()
            #expect(ended.code == 0, "\(ended.err)")
            #expect(ended.err.contains("reached maximum duration (40 s)"), "recording went on at the floor: \(ended.err)")
            #expect(lowest >= floor, "free space fell to \(lowest) bytes, below the floor of \(floor)")

            let saved = ended.out.split(separator: "\n").map(String.init)
            let removed = ended.err.split(separator: "\n").filter { $0.contains("removed older recording") }
            #expect(!removed.isEmpty, "\(ended.err)")
            // Every segment was saved, and the oldest were removed, oldest first: the
            // newest survive.
            #expect(saved.count == 40, "\(saved.count) segments saved")
            let left = saved.filter { FileManager.default.fileExists(atPath: $0) }
            #expect(!left.isEmpty && left == Array(saved.suffix(left.count)), "the newest survive: \(left) of \(saved)")
            #expect(removed.allSatisfy { line in saved.prefix(saved.count - left.count).contains { line.contains($0) } }, "\(removed)")
            // More than three times what the disk holds went through it.
            let sizes = left.compactMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }
            let perSegment = sizes.reduce(0, +) / max(1, sizes.count)
            #expect(Int64(perSegment * saved.count) > 3 * capacity, "\(saved.count) segments of about \(perSegment) bytes on \(capacity) bytes")
        }
    }
}
