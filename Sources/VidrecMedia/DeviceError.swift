import VidrecSystem
/// Why a camera or microphone cannot be used. Each names the device; the choices a user
/// has (the devices there are, the group to join) are carried for the advice that the
/// command line renders.
public enum DeviceError: Error, Equatable, CustomStringConvertible {
    case noCamera
    /// Cameras exist, but none sends a format vidrec reads: each as `path (name): why`.
    case noUsableCamera([String])
    case cameraNotFound(path: String, reason: String)
    case notACamera(path: String, reason: String)
    case noSuchCameraIndex(Int, available: [String])
    case noMatchingCamera(String, available: [String])
    case ambiguousCamera(String, matches: [String])
    case permissionDenied(path: String, group: String)
    case busy(path: String)
    case microphoneNotFound(name: String, reason: String, available: [String])
    /// `holder`: the program that has it open, as `name (pid N)`, where it can be found.
    case microphoneBusy(name: String, holder: String?)
    /// The microphone is a sound server's (`server`: PipeWire, PulseAudio), which this
    /// process cannot reach, for `reason`.
    case soundServerUnreachable(name: String, server: String, reason: String)
    case stopped(device: String, reason: String)

    /// What is wrong, naming the device; the command line adds what to do about it.
    public var description: String {
        switch self {
        case .noCamera:
            return "no camera found: no /dev/video* device can capture video"
        case let .noUsableCamera(cameras):
            return "no camera vidrec can record from: \(cameras.joined(separator: "; "))"
        case let .cameraNotFound(path, reason):
            return "camera \(path) not found (\(reason))"
        case let .notACamera(path, reason):
            return "\(path) is not a camera: \(reason)"
        case let .noSuchCameraIndex(index, _):
            return "there is no camera \(index)"
        case let .noMatchingCamera(name, _):
            return "no camera matches '\(name)'"
        case let .ambiguousCamera(name, matches):
            return "'\(name)' matches several cameras (\(matches.joined(separator: ", ")))"
        case let .permissionDenied(path, _):
            return "permission denied for \(path)"
        case let .busy(path):
            return "\(path) is in use by another program"
        case let .microphoneNotFound(name, reason, _):
            return "microphone '\(name)' not found (\(reason))"
        case let .microphoneBusy(name, holder):
            return "microphone '\(name)' is in use by \(holder ?? "another program")"
        case let .soundServerUnreachable(name, server, reason):
            return "microphone '\(name)' goes through the \(server) sound server, which this process cannot reach (\(reason))"
        case let .stopped(device, reason):
            return "\(device) \(reason)"
        }
    }
}

extension DeviceError: ExitCoded {
    public var exitCode: ExitCode { .unavailable }
}
