import Synchronization
import VidrecMedia
import VidrecSystem

/// Why a source made the session end.
public enum CaptureSessionError: Error, CustomStringConvertible {
    /// A source sent nothing for ``CaptureSession/stallTimeout``.
    case stalled(String, MediaKind)
    /// A source stopped by itself, with its error.
    case sourceEnded(String, MediaKind, (any Error)?)
    /// The session is not recording (it has not started, or it is ending).
    case notRunning

    public var description: String {
        switch self {
        case let .stalled(name, kind):
            "\(kind == .video ? "camera" : "microphone") \(name) sent nothing for \(CaptureTiming.stallTimeout.wholeSeconds) s; the recording so far was kept"
        case let .sourceEnded(name, kind, error):
            "\(kind == .video ? "camera" : "microphone") \(name) stopped\(error.map { ": \($0)" } ?? ""); the recording so far was kept"
        case .notRunning:
            "the recording is not running (it is ending, or has not started yet)"
        }
    }
}

extension CaptureSessionError: ExitCoded {
    public var exitCode: ExitCode {
        if case .notRunning = self { return .temporaryFailure }
        return .unavailable
    }
}
