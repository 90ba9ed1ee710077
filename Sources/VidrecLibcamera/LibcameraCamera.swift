import CLibcamera
import Glibc
import Synchronization
import VidrecMedia
import VidrecSystem

/// A camera libcamera drives (a Raspberry Pi's camera module, a laptop's MIPI camera
/// behind IPU6, vimc) as a capture source: libcamera runs the media-controller pipeline
/// and its image processing, and hands over finished pictures. Each frame is copied
/// from libcamera's mapped buffer into a ``FrameBuffer`` on libcamera's own thread,
/// which then queues the buffer again at once; its capture time is the buffer's
/// timestamp (CLOCK_MONOTONIC), as V4L2's.
public final class LibcameraCamera: VideoCaptureSource, @unchecked Sendable {
    // @unchecked Sendable: `camera` is used by start/stop on the owner's thread and by
    // libcamera's thread between them only; `queue` is guarded by its mutex.
    public let displayName: String
    public let videoFormat: VideoFormat
    /// libcamera's id of the camera.
    public let id: String
    private let camera: OpaquePointer
    private let queue = Mutex<CaptureQueue?>(nil)
    /// Buffers libcamera allocates, as many as V4L2 cameras use.
    public static let bufferCount: UInt32 = 4

    /// Opens camera `id` (named `name` in messages) in `mode`, a mode libcamera listed
    /// for it (``LibcameraDiscovery``), asking for the mode's frame rate and for
    /// `controls` (libcamera's names, values in range) from the first frame on; they go
    /// back to their defaults when capture stops, unless `keepControls`.
    ///
    /// - Throws: ``LibcameraError`` when it is not there, is in use, or refuses the mode
    ///   or a control.
    public init(id: String, name: String, mode: CameraMode, controls: [(name: String, value: Double)] = [],
                keepControls: Bool = false) throws {
        self.id = id
        displayName = "libcamera:\(id) (\(name))"
        guard let format = mode.pixelFormat, var fourcc = LibcameraFormat.drm(format) else {
            throw LibcameraError("open", camera: id, reason: "vidrec cannot read the format \(mode.fourcc)", code: EINVAL)
        }
        var (width, height) = (UInt32(mode.width), UInt32(mode.height))
        let duration = mode.frameRate > Rational(0) ? (mode.frameRate.reciprocal * Rational(1_000_000)).rounded : 0
        var opened: OpaquePointer?
        var reason = [CChar](repeating: 0, count: 256)
        let result = vidrec_libcamera_open(id, &fourcc, &width, &height, Self.bufferCount, duration, &opened, &reason, reason.count)
        guard result == 0, let opened else {
            throw LibcameraError("open", camera: id, reason: String(cBuffer: reason), code: -result)
        }
        guard let actual = LibcameraFormat.pixelFormat(drm: fourcc) else {
            vidrec_libcamera_close(opened)
            throw LibcameraError("open", camera: id, reason: "it gives \(LibcameraFormat.text(fourcc)), which vidrec cannot read", code: EINVAL)
        }
        for control in controls {
            let code = vidrec_libcamera_set_control(opened, control.name, control.value, keepControls ? 1 : 0)
            guard code == 0 else {
                vidrec_libcamera_close(opened)
                throw LibcameraError("set \(control.name)", camera: id, reason: "it does not take \(control.name)=\(LibcameraControl.text(control.value))",
                                     code: -code)
            }
        }
        camera = opened
        videoFormat = VideoFormat(pixelFormat: actual, width: Int(width), height: Int(height), frameRate: mode.frameRate)
    }

    public func start(into queue: CaptureQueue) throws {
        self.queue.withLock { $0 = queue }
        var reason = [CChar](repeating: 0, count: 256)
        let result = vidrec_libcamera_start(camera, { context, frame in
            guard let context, let frame else { return }
            Unmanaged<LibcameraCamera>.fromOpaque(context).takeUnretainedValue().deliver(frame.pointee)
        }, Unmanaged.passUnretained(self).toOpaque(), &reason, reason.count)
        guard result == 0 else {
            self.queue.withLock { $0 = nil }
            throw LibcameraError("start", camera: id, reason: String(cBuffer: reason), code: -result)
        }
    }

    /// On libcamera's thread: the frame's planes, one after another, into a buffer of
    /// its own, then to the queue.
    private func deliver(_ frame: vidrec_libcamera_frame) {
        guard let queue = queue.withLock({ $0 }), frame.failed == 0 else { return }
        let format = videoFormat
        let layout = LibcameraFormat.planes(format.pixelFormat, stride: Int(frame.strides.0), height: format.height)
        let sources = [frame.planes.0, frame.planes.1, frame.planes.2]
        let sizes = [frame.plane_sizes.0, frame.plane_sizes.1, frame.plane_sizes.2]
        let total = layout.reduce(0) { $0 + $1.stride * $1.rows }
        let buffer = FrameBuffer(count: total)
        var offset = 0
        for (index, plane) in layout.enumerated() {
            let length = plane.stride * plane.rows
            // One dmabuf for every plane: the next plane follows this one in it.
            let source = index < Int(frame.plane_count) ? sources[index] : sources[0].map { $0 + offset }
            guard let source, index >= Int(frame.plane_count) || sizes[index] == 0 || sizes[index] >= length else { return }
            (buffer.bytes + offset).copyMemory(from: source, byteCount: length)
            offset += length
        }
        _ = queue.push(.video(VideoFrame(pixelFormat: format.pixelFormat, width: format.width, height: format.height,
                                         buffer: buffer, byteCount: total, strides: layout.map(\.stride),
                                         captureTime: frame.timestamp, sequence: UInt64(frame.sequence))))
    }

    /// Stops capture: no frame reaches the queue after this begins (the last request,
    /// which sets the controls back, makes one more).
    public func stop() {
        queue.withLock { $0 = nil }
        vidrec_libcamera_stop(camera)
    }

    deinit { vidrec_libcamera_close(camera) }
}
