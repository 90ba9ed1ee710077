import CSystemShims
import Foundation
import Glibc
import Testing
import VidrecFFmpeg
import VidrecMedia

/// A movie output that cannot be built frees what it had made: every FFmpeg object has
/// an owner, so a throw part-way through an initializer leaks nothing.
@Suite struct MovieFileOutputOwnershipTests {
    /// libopus refuses 44100 Hz in `avcodec_open2`, after the video encoder, the codec
    /// context and the frame for audio have been made.
    static let refused = MovieSettings(
        container: .mkv,
        video: VideoEncoding(codec: "libx264", width: 160, height: 120, frameRate: Rational(15), pixelFormat: "yuv420p",
                             speed: "ultrafast", crf: 30, bitRate: nil, keyframeInterval: 15),
        audio: AudioEncoding(codec: "libopus", sampleRate: 44100, channels: 1, bitRate: 48_000))

    /// Bytes the C heap holds in use. The corresponding C function is `mallinfo2`.
    static func heapInUse() -> Int { Int(csystem_heap_in_use()) }

    @Test func anEncoderThatRefusesItsSettingsLeavesNoFileAndLeaksNothing() throws {
        let directory = NSTemporaryDirectory() + "vidrec-owners-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/movie.mkv"
        func attempt() {
            do {
                _ = try MovieEncoder.recordingFile(path: path, settings: Self.refused)
                Issue.record("libopus took 44100 Hz")
            } catch let error as FFmpegError {
                #expect(error.operation == "avcodec_open2" && error.subject == "libopus")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
        for _ in 0..<5 { attempt() }
        // The heap is the whole test process's, and other tests allocate and free beside
        // this one: a leak shows as growth in every batch, their noise does not, so the
        // smallest growth of several batches is what counts.
        var growth: [Int] = []
        for _ in 0..<6 {
            let before = Self.heapInUse()
            for _ in 0..<400 { attempt() }
            growth.append(Self.heapInUse() - before)
        }
        // Before owners, each attempt lost the audio encoder's codec context and frame:
        // about 1.5 KB each, 600 KB a batch.
        #expect(growth.min()! < 192 * 1024, "the C heap grew by \(growth) bytes in batches of 400 failed outputs")
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
