import Foundation
import VidrecMedia
import VidrecSystem

/// The still-photo output beside the movie output, as `AVCapturePhotoOutput` sits beside
/// `AVCaptureMovieFileOutput` in one capture session: `vidrec snap` asks the running
/// recording for a photo, and the first frame captured after the asking is encoded and
/// written. A source whose capture times lag behind the clock (a test source on a
/// loaded machine, a camera whose queue is full) may deliver none such for a while: once
/// ``lagAllowance`` has passed, the next frame that arrives is taken instead. The movie is not touched: the photo output has its own connection, queue
/// and thread, and takes nothing from the movie's.
///
/// When nobody has asked, a frame costs one look at an empty list.
///
/// It is a ``RecordingFeature`` that every recording of `vidrec start` has: attached, it
/// adds itself behind a queue of two frames that drops (`vidrec.photo`), and it never
/// ends the recording.
public final class PhotoOutput: CaptureOutput, RecordingFeature, @unchecked Sendable {
    // @unchecked Sendable: every stored property is either immutable or guarded by
    // `condition`; ``capture(to:width:timeout:)`` runs on any thread, the CaptureOutput
    // calls on the connection's thread.

    /// A photo that was written.
    public struct Taken: Sendable, Equatable {
        /// The picture's size as written, in pixels.
        public var width: Int
        public var height: Int
        /// The JPEG's size in bytes.
        public var bytes: Int
    }

    private final class Request {
        let after: Int64
        /// When a frame that arrives is taken whatever its capture time.
        let anyFrameAfter: Int64
        let width: Int?
        let path: String
        var result: Result<Taken, PhotoError>?
        init(after: Int64, width: Int?, path: String) {
            self.after = after
            self.anyFrameAfter = after + PhotoOutput.lagAllowance
            self.width = width
            self.path = path
        }
    }

    private let encoder: any PhotoEncoding
    private let condition = NSCondition()
    private var requests: [Request] = []
    private var attached = false
    private var hasPicture = true
    private var ended = false

    public let outputName = "photo output"

    /// How long after the asking only a frame captured after it is taken, in
    /// nanoseconds: one second, thirty frames at 30 fps.
    public static let lagAllowance: Int64 = 1_000_000_000
    public var bytesWritten: Int64 { 0 }

    /// Creates a photo output that encodes with `encoder`.
    public init(encoder: any PhotoEncoding) {
        self.encoder = encoder
    }

    /// Takes a photo from the next frame captured from now on and writes it durably to
    /// `path`; waits until it is written.
    ///
    /// - Parameters:
    ///   - width: the photo's width, keeping the aspect ratio (`nil`: the camera's frame size).
    ///   - timeout: the longest to wait for a frame, in seconds.
    /// - Throws: ``PhotoError``: ``PhotoError/notRecording`` before the recording has
    ///   started, ``PhotoError/recordingEnded`` once it is ending.
    public func capture(to path: String, width: Int?, timeout: Double) throws(PhotoError) -> Taken {
        let request = Request(after: MonotonicClock.now(), width: width, path: path)
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        guard attached else { throw .notRecording }
        guard hasPicture else { throw .noPicture }
        guard !ended else { throw .recordingEnded }
        requests.append(request)
        while request.result == nil {
            if !condition.wait(until: deadline) && request.result == nil {
                requests.removeAll { $0 === request }
                throw .noFrame(camera: "the recording's camera", seconds: timeout)
            }
        }
        return try request.result!.get()
    }

    public func appendVideo(_ frame: VideoFrame, frameIndex: Int64) throws {
        encoder.observe(frame)
        condition.lock()
        let due: [Request]
        if requests.isEmpty {
            due = []
        } else {
            let now = MonotonicClock.now()
            let isDue = { (request: Request) in request.after < frame.captureTime || request.anyFrameAfter <= now }
            due = requests.filter(isDue)
            requests.removeAll(where: isDue)
        }
        condition.unlock()
        guard !due.isEmpty else { return }
        var encoded: [Int?: Result<EncodedPhoto, PhotoError>] = [:]
        var results: [Result<Taken, PhotoError>] = []
        for request in due {
            let photo = encoded[request.width] ?? Result { () throws(PhotoError) -> EncodedPhoto in
                do { return try encoder.jpeg(of: frame, width: request.width) } catch { throw .failed("\(error)") }
            }
            encoded[request.width] = photo
            results.append(photo.flatMap { photo in
                do {
                    try AtomicFile.write(Data(photo.bytes), to: request.path, durable: true)
                } catch {
                    return .failure(.failed("cannot write \(request.path): \(error)"))
                }
                return .success(Taken(width: photo.width, height: photo.height, bytes: photo.bytes.count))
            })
        }
        condition.lock()
        for (request, result) in zip(due, results) { request.result = result }
        condition.broadcast()
        condition.unlock()
    }

    public func appendAudio(_ chunk: AudioChunk) throws {}

    /// How many frames wait for the photo's thread; newer ones are dropped meanwhile.
    public static let queueFrames = 2

    public func attach(to recording: FeatureContext) throws -> [OutputConnection] {
        condition.lock()
        attached = true
        hasPicture = recording.hasPicture
        condition.unlock()
        // A sound recording has nothing to take a photo of: `snap` is told so.
        guard recording.hasPicture else { return [] }
        return [OutputConnection(output: self, policy: OutputPolicy(videoCapacity: PhotoOutput.queueFrames, isEssential: false),
                                 threadName: "vidrec.photo")]
    }

    public func recordingEnded(_ outcome: RecordingOutcome) -> [String] { [] }

    /// Ends the output: photos still waiting for a frame fail with
    /// ``PhotoError/recordingEnded``, and later ones are refused.
    public func finish() throws {
        condition.lock()
        ended = true
        for request in requests { request.result = .failure(.recordingEnded) }
        requests.removeAll()
        condition.broadcast()
        condition.unlock()
    }
}
