import Foundation
import Glibc
import Testing
import VidrecFFmpeg
import VidrecMedia
import VidrecSystem

/// The movie file's own writes go through the syscall seam: a disk that fills up or
/// fails mid-recording is reported with the real errno, and what was written before
/// plays.
@Suite struct MovieFileOutputFaultTests {
    static let settings = MovieSettings(
        container: .mp4,
        video: VideoEncoding(codec: "libx264", width: 160, height: 120, frameRate: Rational(15), pixelFormat: "yuv420p",
                             speed: "ultrafast", crf: 30, bitRate: nil, keyframeInterval: 5),
        audio: nil)

    static func frame(_ index: Int) -> VideoFrame {
        let buffer = FrameBuffer(count: 160 * 120 * 2)
        buffer.bytes.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: index * 7), count: buffer.count)
        return VideoFrame(pixelFormat: .yuyv, width: 160, height: 120, buffer: buffer, byteCount: buffer.count,
                          strides: [320], captureTime: 0, sequence: UInt64(index))
    }

    /// Waits until `output`'s movie file has written `frames` frames, for at most two
    /// minutes (a deadline for a broken run, not a pause); the pause between checks only
    /// paces the polling.
    /// - Returns: whether it did.
    static func waitUntilWritten(_ frames: Int64, by output: MovieEncoder) -> Bool {
        let deadline = Date(timeIntervalSinceNow: 120)
        while (output.writtenVideoEnd ?? 0) < frames {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }

    @Test(arguments: [(Syscall.write, ENOSPC), (.write, EIO), (.fsync, EIO)])
    func aDiskThatFailsMidRecordingIsReportedWithItsErrnoAndTheFileSoFarPlays(operation: Syscall, code: Int32) throws {
        let directory = NSTemporaryDirectory() + "vidrec-faults-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/movie.mp4"
        // The file is written on a thread of its own, started with the first frame: the
        // switch is in force there too, and turned on part-way.
        let disk = FaultSwitch()
        var written = false
        let error = try #require(throws: SystemError.self) {
            try SyscallFaults.injecting(through: disk) {
                let output = try MovieEncoder.recordingFile(path: path, settings: Self.settings)
                for index in 0..<30 { try output.appendVideo(Self.frame(index), frameIndex: Int64(index)) }
                // The fault comes once the file's thread has written 20 frames (fragments
                // of 0.1 s, flushed as they close): on a busy machine that thread may
                // not have run at all yet, and the file would have nothing to play.
                written = Self.waitUntilWritten(20, by: output)
                disk.turnOn([operation: code])
                for index in 30..<60 { try output.appendVideo(Self.frame(index), frameIndex: Int64(index)) }
                try output.finish()
            }
        }
        #expect(written, "the file's thread had not written 20 frames before the fault")
        #expect(error.errno == code && error.subject == path)
        // The fragments written before the fault decode.
        let info = try MovieProbe().inspect(path)
        #expect(info.streams.first?.packets ?? 0 >= 10)
    }
}
