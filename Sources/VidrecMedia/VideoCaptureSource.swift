/// A source of video frames at a nominal frame rate.
public protocol VideoCaptureSource: CaptureSource {
    /// The format frames arrive in.
    var videoFormat: VideoFormat { get }
}
