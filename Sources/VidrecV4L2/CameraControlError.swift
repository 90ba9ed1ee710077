import VidrecMedia
import VidrecSystem

/// A camera control that was asked for and cannot be set as asked.
public enum CameraControlError: Error, Equatable, CustomStringConvertible {
    /// `--set` names a control the camera does not have.
    case unknown(String, camera: String, available: [String])
    /// A shortcut (`--focus`) needs a control the camera does not have.
    case missing(String, tried: [String], camera: String, available: [String])
    /// A value outside the control's range, or not one of its menu items.
    case badValue(String, control: String, range: String)

    public var description: String {
        switch self {
        case let .unknown(name, camera, available):
            "camera \(camera) has no control '\(name)'; it has: \(available.joined(separator: ", ")) ('vidrec controls' shows their values)"
        case let .missing(what, tried, camera, available):
            "camera \(camera) has no \(what) control (\(tried.joined(separator: " or "))); it has: \(available.joined(separator: ", "))"
        case let .badValue(value, control, range):
            "\(control) cannot be set to '\(value)': it takes \(range)"
        }
    }
}

extension CameraControlError: ExitCoded {
    public var exitCode: ExitCode { .dataError }
}
