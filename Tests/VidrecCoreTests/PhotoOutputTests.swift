import Foundation
import Glibc
import Synchronization
import Testing
import VidrecCore
import VidrecMedia
import VidrecSystem

/// Which frame a snap takes: the first captured after the asking, or, from a source whose
/// capture times lag behind the clock, the first that arrives once the lag allowance has
/// passed; and what a snap gets when the recording ends.
@Suite struct PhotoOutputTests {
    /// Remembers which frame it was asked to encode and when; the bytes are the frame's
    /// sequence number (the real JPEG encoder is tested end to end).
    final class RecordingEncoder: PhotoEncoding, @unchecked Sendable {
        let encoded = Mutex<[(frame: VideoFrame, at: Int64)]>([])
        func jpeg(of frame: VideoFrame, width: Int?) throws -> EncodedPhoto {
            encoded.withLock { $0.append((frame, MonotonicClock.now())) }
            return EncodedPhoto(bytes: Array(String(frame.sequence).utf8), width: frame.width, height: frame.height)
        }
    }

    /// `output`, attached to a recording as the ``Recorder`` attaches it.
    func attached(_ output: PhotoOutput) throws -> PhotoOutput {
        let state = try TemporaryDirectory()
        let store = try RecordingStore(stateDirectory: state.path)
        let saver = AlbumSaver(store: store, manifest: AlbumManifest(stateDirectory: state.path), finalizer: RenameOnly())
        let connections = try output.attach(to: FeatureContext(
            id: "test", startTime: Date(), frameRate: Rational(30), camera: "scripted camera", cameraPath: nil, pid: getpid(),
            photos: PhotoSaver(store: store, saver: saver), trigger: { false }))
        #expect(connections.map(\.outputName) == ["photo output"] && connections.allSatisfy { !$0.policy.isEssential })
        return output
    }

    func frame(captured time: Int64, sequence: UInt64) -> VideoFrame {
        VideoFrame(pixelFormat: .yuyv, width: 2, height: 2, buffer: FrameBuffer(count: 8), byteCount: 8,
                   strides: [4], captureTime: time, sequence: sequence)
    }

    /// Asks for a photo on another thread and feeds frames from `next` until it is taken.
    func snap(_ output: PhotoOutput, into folder: TemporaryDirectory,
              feeding next: (UInt64) -> VideoFrame) throws -> (asked: Int64, taken: Result<PhotoOutput.Taken, PhotoError>) {
        let path = folder.path + "/photo.jpg"
        let result = Mutex<Result<PhotoOutput.Taken, PhotoError>?>(nil)
        let asked = MonotonicClock.now()
        let thread = Thread {
            let taken = Result { () throws(PhotoError) in try output.capture(to: path, width: nil, timeout: 60) }
            result.withLock { $0 = taken }
        }
        thread.start()
        var sequence: UInt64 = 0
        while result.withLock({ $0 == nil }) {
            sequence += 1
            try output.appendVideo(next(sequence), frameIndex: Int64(sequence))
            Thread.sleep(forTimeInterval: 0.002)  // pacing only: the loop ends on the photo
        }
        return (asked, result.withLock { $0! })
    }

    @Test func aFrameCapturedBeforeTheAskingIsNotTakenWhileOneAfterItMayStillCome() throws {
        let encoder = RecordingEncoder()
        let output = try attached(PhotoOutput(encoder: encoder))
        let folder = try TemporaryDirectory()
        // Nine frames in ten were captured long ago, every tenth now.
        let (asked, taken) = try snap(output, into: folder) { sequence in
            frame(captured: sequence % 10 == 0 ? MonotonicClock.now() : 1, sequence: sequence)
        }
        let photo = try taken.get()
        #expect(photo.width == 2 && photo.height == 2)
        let encoded = encoder.encoded.withLock { $0 }
        try #require(encoded.count == 1)
        let (picked, at) = encoded[0]
        // An old frame is taken only once the allowance has passed (a very busy machine).
        #expect(picked.captureTime > asked || at >= asked + PhotoOutput.lagAllowance)
        let written = try String(contentsOfFile: folder.path + "/photo.jpg", encoding: .utf8)
        #expect(written == String(picked.sequence))
    }

    @Test func aSourceWhoseCaptureTimesLagStillGivesAPhotoOnceTheAllowanceHasPassed() throws {
        let encoder = RecordingEncoder()
        let output = try attached(PhotoOutput(encoder: encoder))
        let folder = try TemporaryDirectory()
        let lag: Int64 = 10_000_000_000
        let (asked, taken) = try snap(output, into: folder) { sequence in
            frame(captured: MonotonicClock.now() - lag, sequence: sequence)
        }
        _ = try taken.get()
        let encoded = encoder.encoded.withLock { $0 }
        try #require(encoded.count == 1)
        #expect(encoded[0].frame.captureTime < asked)
        #expect(encoded[0].at >= asked + PhotoOutput.lagAllowance)
    }

    @Test func aSnapWaitingWhenTheRecordingEndsFailsAndLaterOnesAreRefused() throws {
        let output = try attached(PhotoOutput(encoder: RecordingEncoder()))
        let folder = try TemporaryDirectory()
        let path = folder.path
        let result = Mutex<Result<PhotoOutput.Taken, PhotoError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let taken = Result { () throws(PhotoError) in
                try output.capture(to: path + "/a.jpg", width: nil, timeout: 60)
            }
            result.withLock { $0 = taken }
            done.signal()
        }
        thread.start()
        try output.finish()
        done.wait()
        #expect(result.withLock { $0 } == .failure(.recordingEnded))
        #expect(throws: PhotoError.recordingEnded) {
            try output.capture(to: folder.path + "/b.jpg", width: nil, timeout: 60)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/a.jpg"))
    }

    @Test func aSnapBeforeTheRecordingHasStartedIsRefused() throws {
        let folder = try TemporaryDirectory()
        #expect(throws: PhotoError.notRecording) {
            try PhotoOutput(encoder: RecordingEncoder()).capture(to: folder.path + "/a.jpg", width: nil, timeout: 60)
        }
    }
}
