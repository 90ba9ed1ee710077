/// Why a camera or microphone cannot be used. Each message names the device and the fix.
public enum DeviceError: Error, Equatable, CustomStringConvertible {
    case noCamera
    case cameraNotFound(path: String, reason: String)
    case notACamera(path: String, reason: String)
    case noSuchCameraIndex(Int, available: [String])
    case noMatchingCamera(String, available: [String])
    case ambiguousCamera(String, matches: [String])
    case permissionDenied(path: String, group: String)
    case busy(path: String)
    case microphoneNotFound(name: String, reason: String, available: [String])
    case microphoneBusy(name: String)
    case stopped(device: String, reason: String)

    public var description: String {
        switch self {
        case .noCamera:
            return "no camera found: no /dev/video* device can capture video; connect a camera, or use --camera test"
        case let .cameraNotFound(path, reason):
            return "camera \(path) not found (\(reason)); 'vidrec devices' lists the cameras"
        case let .notACamera(path, reason):
            return "\(path) is not a camera: \(reason); 'vidrec devices' lists the cameras"
        case let .noSuchCameraIndex(index, available):
            return "there is no camera \(index)" + Self.choices(available, noun: "cameras")
        case let .noMatchingCamera(name, available):
            return "no camera matches '\(name)'" + Self.choices(available, noun: "cameras")
        case let .ambiguousCamera(name, matches):
            return "'\(name)' matches several cameras (\(matches.joined(separator: ", "))); give its path or index"
        case let .permissionDenied(path, group):
            return "permission denied for \(path): add yourself to the '\(group)' group (sudo usermod -aG \(group) $USER), then log in again"
        case let .busy(path):
            return "\(path) is in use by another program; close that program and try again"
        case let .microphoneNotFound(name, reason, available):
            return "microphone '\(name)' not found (\(reason))" + Self.choices(available, noun: "microphones")
        case let .microphoneBusy(name):
            return "microphone '\(name)' is in use by another program; close that program and try again"
        case let .stopped(device, reason):
            return "\(device) \(reason)"
        }
    }

    private static func choices(_ available: [String], noun: String) -> String {
        available.isEmpty ? "; there are no \(noun) ('vidrec devices' lists them)"
            : "; 'vidrec devices' lists them: \(available.joined(separator: ", "))"
    }
}
