import VidrecMedia
import VidrecSystem

/// Why the ``Recorder`` would not start. Nothing was recorded.
public enum RecorderError: Error, Sendable, Equatable {
    /// The disk holding the pending area is already below the `--min-free` floor.
    case lowDiskSpace(directory: String, free: Int64, floor: Int64)
    /// vidrec is already recording from this camera.
    case cameraBusy(path: String, id: String, pid: Int32, since: String)
    /// `vidrec switch` asked for the camera the recording already records from.
    case alreadyRecordingFrom(String)
    /// These devices cannot record in segments (scripted test devices).
    case segmentsUnsupported
    /// `vidrec switch` during a recording that stores its camera's own stream.
    case copiedStreamCannotSwitch(String)
    /// `vidrec pause` during a recording that stores its camera's own H.264, whose
    /// pictures after a pause would refer to pictures left out.
    case copiedStreamCannotPause(String)
    /// A recording without video (``MovieSettings/isAudioOnly``) whose preset has no
    /// audio (or no microphone was given).
    case nothingToRecord
    /// `vidrec switch` during a sound recording, or to no camera during a movie.
    case switchWithoutCamera
    /// A feature that works on the picture (named) was asked of a sound recording.
    case needsPicture(String)
    /// The camera waited for (`--reconnect`) opened as another camera (found), or in
    /// another mode.
    case otherCamera(expected: String, found: String)
    /// The microphone waited for (`--reconnect`) opened as another microphone (found),
    /// or in another format.
    case otherMicrophone(expected: String, found: String)
}

extension RecorderError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .lowDiskSpace(directory, free, floor):
            "only \(ByteCount.format(free)) free on the disk holding \(directory), below the floor of \(ByteCount.format(floor))"
        case let .cameraBusy(path, id, pid, since):
            "camera \(path) is already being recorded by vidrec: recording \(id) (pid \(pid), started \(since))"
        case let .alreadyRecordingFrom(camera):
            "the recording already records from \(camera)"
        case .segmentsUnsupported:
            "these devices cannot record in segments"
        case let .copiedStreamCannotSwitch(camera):
            "the recording stores the stream of \(camera) as it is, and another camera's stream cannot continue it"
        case let .copiedStreamCannotPause(camera):
            "the recording stores the H.264 stream of \(camera) as it is, whose pictures after a pause would refer to pictures left out"
        case .nothingToRecord:
            "nothing to record: no camera is recorded and there is no microphone (a preset without audio, or --mic none); give a microphone with --mic"
        case .switchWithoutCamera:
            "a sound recording has no camera to switch, and a movie cannot go on without a camera"
        case let .needsPicture(feature):
            "\(feature) needs a picture, and this recording has no camera; leave it out or give a camera"
        case let .otherCamera(expected, found):
            "the camera opened is \(found), not \(expected) in the recording's mode"
        case let .otherMicrophone(expected, found):
            "the microphone opened is \(found), not \(expected) in the recording's format"
        }
    }
}

extension RecorderError: ExitCoded {
    public var exitCode: ExitCode {
        switch self {
        case .lowDiskSpace: .ioError
        case .cameraBusy, .otherCamera, .otherMicrophone: .temporaryFailure
        case .alreadyRecordingFrom, .copiedStreamCannotSwitch, .copiedStreamCannotPause,
             .switchWithoutCamera, .needsPicture: .usage
        case .nothingToRecord: .dataError
        case .segmentsUnsupported: .software
        }
    }
}
