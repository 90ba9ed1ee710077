import VidrecMedia
import VidrecSystem

/// The camera of a sound recording (`--camera none`): it sends no picture, only the
/// time, as blank frames ``tickRate`` times a second on CLOCK_MONOTONIC from a named
/// thread. The capture session places them like any camera's frames, so a sound
/// recording is timed as a movie is: the limit ends it on a tick (exact to the sample),
/// a stop ends it after the newest tick, the microphone's audio is placed, trimmed,
/// padded and drift-corrected against the same clock, segments are cut on ticks, and
/// pause and resume work on them. Nothing of the frames is stored: opened, it marks the
/// movie as sound only (``VideoEncoding/isRecorded``), so the file is a sound file with
/// the preset's audio (M4A for AAC, Ogg Opus for Opus).
public final class NoCamera: VideoCaptureSource {
    /// Ticks a second: a recording's length is a whole number of them (20 ms), and each
    /// is a whole number of samples at every common rate (960 at 48 kHz, 882 at 44.1 kHz).
    public static let tickRate = Rational(50)

    /// How a sound recording names its camera (in the sidecar, `status` and the
    /// recording line).
    public static let name = "no camera (sound only)"

    public let displayName = NoCamera.name
    /// Blank 16x16 frames: what the session's queues are sized for.
    public let videoFormat = VideoFormat(pixelFormat: .yu12, width: 16, height: 16, frameRate: NoCamera.tickRate)

    private let worker = CaptureWorker()
    /// The one blank picture every tick carries; never written to.
    private let blank: FrameBuffer

    /// Creates the camera of a sound recording; nothing runs before ``start(into:)``.
    public init() {
        let format = videoFormat
        blank = FrameBuffer(count: format.pixelFormat.frameByteCount(width: format.width, height: format.height))
        blank.bytes.initializeMemory(as: UInt8.self, repeating: 128, count: blank.count)
    }

    /// Opens the camera of a sound recording for `video`: the movie becomes sound only,
    /// its time counted in ticks.
    public static func open(adjusting video: inout VideoEncoding) -> OpenedCamera {
        video.isRecorded = false
        video.frameRate = tickRate
        video.copied = nil
        video.sourceFormat = nil
        return OpenedCamera(source: NoCamera(), path: nil, mode: nil)
    }

    public func start(into queue: CaptureQueue) throws {
        let format = videoFormat
        let blank = self.blank
        worker.startPaced(name: "vidrec.ticks", frameRate: format.frameRate) { sequence, due in
            queue.push(.video(VideoFrame(pixelFormat: format.pixelFormat, width: format.width, height: format.height,
                                         buffer: blank, byteCount: blank.count,
                                         strides: [format.width, format.width / 2, format.width / 2],
                                         captureTime: due, sequence: sequence)))
        }
    }

    public func stop() {
        worker.stop()
    }
}
