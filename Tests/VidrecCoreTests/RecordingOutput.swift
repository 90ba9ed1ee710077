import Foundation
import Synchronization
import VidrecMedia

/// An output that records what it is given: frame indexes, audio frames, whether it was
/// finished. It can be told to wait in its first video append until an event (another
/// output finishing), standing in for an encoder or a disk that stalls, and to fail at a
/// given frame, standing in for a full disk.
final class RecordingOutput: CaptureOutput, @unchecked Sendable {
    struct DiskFull: Error {}

    let outputName: String
    private let state = Mutex<(indexes: [Int64], audio: Int64, finished: Int, firstBytes: [UInt8])>(([], 0, 0, []))
    private let failAtFrame: Int?
    private let release = DispatchSemaphore(value: 0)
    private let waitsForRelease: Bool
    private let onFinish: (@Sendable () -> Void)?
    /// Called after each audio append with the audio frames appended so far.
    var onAudio: (@Sendable (Int64) -> Void)?
    /// Called when the first video append starts to wait for ``releaseStall()``.
    var onStall: (@Sendable () -> Void)?

    /// - Parameters:
    ///   - waitsForRelease: the first video append waits until ``releaseStall()``.
    ///   - failAtFrame: the append of this many-th frame (0-based) throws ``DiskFull``.
    ///   - onFinish: called when the output is finished.
    init(_ name: String, waitsForRelease: Bool = false, failAtFrame: Int? = nil,
         onFinish: (@Sendable () -> Void)? = nil) {
        outputName = name
        self.waitsForRelease = waitsForRelease
        self.failAtFrame = failAtFrame
        self.onFinish = onFinish
    }

    /// Lets a stalled first append go on.
    func releaseStall() { release.signal() }

    var indexes: [Int64] { state.withLock { $0.indexes } }
    var audioFrames: Int64 { state.withLock { $0.audio } }
    var finishCount: Int { state.withLock { $0.finished } }

    /// The first byte of the frame appended for slot `index` (a scripted camera's frame
    /// carries the slot it was captured for there); `nil` for a slot not appended.
    func frameBytes(at index: Int64) -> UInt8? {
        state.withLock { state in state.indexes.firstIndex(of: index).map { state.firstBytes[$0] } }
    }

    func appendVideo(_ frame: VideoFrame, frameIndex: Int64) throws {
        let count = state.withLock { $0.indexes.count }
        if count == 0, waitsForRelease {
            onStall?()
            release.wait()
        }
        if count == failAtFrame { throw DiskFull() }
        let first = frame.buffer.bytes.load(as: UInt8.self)
        state.withLock {
            $0.indexes.append(frameIndex)
            $0.firstBytes.append(first)
        }
    }

    func appendAudio(_ chunk: AudioChunk) throws {
        let total = state.withLock { state in
            state.audio += Int64(chunk.frameCount)
            return state.audio
        }
        onAudio?(total)
    }

    func finish() throws {
        state.withLock { $0.finished += 1 }
        onFinish?()
    }

    var bytesWritten: Int64 { state.withLock { Int64($0.indexes.count) * 1000 } }
}
