/// Compresses pictures into what a camera that sends compressed frames delivers: each
/// picture as one JPEG, or as one H.264 access unit in Annex B form (the first a
/// keyframe with its parameter sets, no B-frames). The test camera's MJPEG and H.264
/// variants are made with it; the FFmpeg layer gives the real one.
public protocol FrameCompressing {
    /// The compressed frames of `count` pictures, one for each, in order.
    ///
    /// - Parameters:
    ///   - picture: makes picture `n` (0 to `count` - 1), asked for once each, in
    ///     order; it is let go once compressed.
    ///   - format: ``PixelFormat/mjpeg`` or ``PixelFormat/h264``.
    ///   - keyframeInterval: for H.264, frames from one keyframe to the next.
    func compress(_ count: Int, pictures picture: (Int) -> VideoFrame, as format: PixelFormat, frameRate: Rational,
                  keyframeInterval: Int) throws -> [[UInt8]]
}
