import VidrecMedia

/// `vidrec snap` when no recording runs on the camera: starts it, lets its automatic
/// exposure and white balance settle for a few frames (a camera's first frames are
/// often dark or tinted), keeps the next frame, and stops it.
public enum StillCapture {
    /// Frames let go by before the one kept.
    public static let settleFrames = 5

    /// One frame from `camera`, after `settleFrames`.
    ///
    /// - Parameters:
    ///   - timeout: the longest to wait for any one frame, in seconds.
    ///   - observe: sees every frame up to the one kept, in order (an H.264 picture is
    ///     decoded from the keyframe before it: ``PhotoEncoding/observe(_:)``).
    /// - Throws: the camera's error when it cannot start or vanishes;
    ///   ``PhotoError/noFrame(camera:seconds:)`` when it sends nothing in time.
    public static func frame(from camera: any VideoCaptureSource, settleFrames: Int = StillCapture.settleFrames,
                             timeout: Double = 10, observe: (VideoFrame) -> Void = { _ in }) throws -> VideoFrame {
        // An H.264 picture is decoded from the keyframe on: no frame may be dropped.
        let queue = CaptureQueue(videoCapacity: camera.videoFormat.pixelFormat == .h264 ? 64 : 2)
        try camera.start(into: queue)
        defer { camera.stop() }
        var seen = 0
        var waited = 0.0
        while true {
            guard let event = queue.pop(timeout: 0.1) else {
                waited += 0.1
                if waited >= timeout { throw PhotoError.noFrame(camera: camera.displayName, seconds: timeout) }
                continue
            }
            switch event {
            case .video(let frame):
                waited = 0
                observe(frame)
                if seen >= settleFrames { return frame }
                seen += 1
            case .audio:
                continue
            case .sourceEnded(_, let error):
                throw CaptureSessionError.sourceEnded(camera.displayName, .video, error)
            }
        }
    }
}
