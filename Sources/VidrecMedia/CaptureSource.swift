/// Something that captures media on its own thread and pushes it into a
/// ``CaptureQueue``: a camera, a microphone, or a built-in test source.
///
/// The capture session talks to devices only through this protocol, so the session,
/// the limiter and the save step are tested without hardware.
public protocol CaptureSource: AnyObject, Sendable {
    /// A name for messages, such as `test pattern` or `/dev/video0 (vivid)`.
    var displayName: String { get }

    /// Starts capturing on a named thread. Each frame or chunk is pushed into
    /// `queue`; when capture ends for any reason other than ``stop()``, the source
    /// pushes ``CaptureEvent/sourceEnded(_:_:)`` with the error.
    ///
    /// - Throws: when the device cannot be started; nothing has been pushed then.
    func start(into queue: CaptureQueue) throws

    /// Stops capturing and joins the capture thread. Safe to call more than once.
    func stop()
}

/// A source of video frames at a nominal frame rate.
public protocol VideoCaptureSource: CaptureSource {
    /// The format frames arrive in.
    var videoFormat: VideoFormat { get }
}

/// A source of audio chunks.
public protocol AudioCaptureSource: CaptureSource {
    /// The format chunks arrive in.
    var audioFormat: AudioFormat { get }
}

/// The negotiated format of a video source.
public struct VideoFormat: Sendable, Equatable, CustomStringConvertible {
    /// Pixel layout of delivered frames.
    public var pixelFormat: PixelFormat
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Nominal frames per second.
    public var frameRate: Rational

    /// Creates a format.
    public init(pixelFormat: PixelFormat, width: Int, height: Int, frameRate: Rational) {
        self.pixelFormat = pixelFormat
        self.width = width
        self.height = height
        self.frameRate = frameRate
    }

    public var description: String { "\(width)x\(height) \(pixelFormat.rawValue) \(frameRate) fps" }
}

/// Which kind of source an event came from.
public enum MediaKind: String, Sendable {
    case video
    case audio
}
