import VidrecMedia
import VidrecSystem

/// Why a still photo could not be taken.
public enum PhotoError: Error, Equatable, CustomStringConvertible {
    /// The recording asked for a photo is not running (it ended, or has not started).
    case notRecording
    /// The recording ended before a frame came.
    case recordingEnded
    /// No frame came from the camera within this many seconds.
    case noFrame(camera: String, seconds: Double)
    /// The recording records sound only: it has no picture.
    case noPicture
    /// The frame could not be encoded or written.
    case failed(String)

    public var description: String {
        switch self {
        case .notRecording: "the recording is not running"
        case .recordingEnded: "the recording ended before the next frame came"
        case let .noFrame(camera, seconds): "no picture came from \(camera) within \(Int(seconds)) s"
        case .noPicture: "the recording records sound only (no camera); there is no picture to take"
        case let .failed(reason): reason
        }
    }
}

extension PhotoError: ExitCoded {
    public var exitCode: ExitCode {
        switch self {
        case .noFrame: .unavailable
        case .noPicture: .usage
        case .notRecording, .recordingEnded: .temporaryFailure
        case .failed: .failure
        }
    }
}
