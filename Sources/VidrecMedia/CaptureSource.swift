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
