import Synchronization
import VidrecMedia
import VidrecSystem

/// The viewfinder while nothing records, as a camera app shows the picture before the
/// record button is pressed: the camera in a ``CaptureSession`` whose only output is a
/// ``ViewfinderOutput`` (no microphone, no file, no pending entry). The session runs on
/// its own thread (`vidrec.preview`) and holds the camera until ``stop()``, which a
/// recording of the same camera calls first.
public final class ViewfinderPreview: Sendable {
    /// The camera, as displayed (`/dev/video0 (HD Pro Webcam C920)`).
    public let camera: String
    /// The mode it sends in (`1280x720 MJPG 30 fps`), when known.
    public let mode: String?
    private let session: CaptureSession
    private let thread: Mutex<NamedThread?>
    private let ending: Ending

    /// How the session ended, once it has: shared with its thread.
    private final class Ending: Sendable {
        let state = Mutex<(done: Bool, error: (any Error)?)>((false, nil))
    }

    /// Opens the camera `devices` finds in a mode for `video`'s size and rate, and shows
    /// its picture through `output` until ``stop()``.
    ///
    /// - Throws: the device's errors (a busy or missing camera); nothing is left open.
    public init(devices: any RecordingDevices, video: VideoEncoding, output: ViewfinderOutput) throws {
        var video = video
        // The preview decodes a compressed camera's frames for its pictures; nothing is
        // stored, so nothing is copied.
        video.handling = .encode
        var opened: OpenedCamera? = try devices.openCamera(adjusting: &video)
        let source = opened!.source
        camera = source.displayName
        mode = opened!.mode
        opened = nil
        let session = CaptureSession(video: source, audio: nil, frameRate: video.frameRate, limits: RecordingLimits(),
                                     queue: CaptureQueue.sized(for: source.videoFormat))
        try session.startSources()
        self.session = session
        let ending = Ending()
        self.ending = ending
        let connection = output.previewConnection(frameRate: video.frameRate)
        thread = Mutex(NamedThread(name: "vidrec.preview") {
            let failure: (any Error)?
            do { failure = try session.run(outputs: [connection]).error } catch { failure = error }
            ending.state.withLock { $0 = (true, failure) }
        })
    }

    /// Whether the preview has ended by itself (the camera vanished or stalled), with
    /// why; `nil` while it runs.
    public var ended: (any Error)?? {
        ending.state.withLock { $0.done ? .some($0.error) : nil }
    }

    /// Ends the preview and releases the camera; waits until it is released.
    public func stop() {
        session.requestStop()
        thread.withLock { thread in
            thread?.join()
            thread = nil
        }
    }

    deinit { stop() }
}
