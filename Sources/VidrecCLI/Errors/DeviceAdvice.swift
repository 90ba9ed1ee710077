import VidrecMedia

/// What a user can do about a ``DeviceError``: the advice that follows its description
/// in the one-line message.
enum DeviceAdvice {
    /// The advice for `error`, or `nil` when there is nothing to add.
    static func advice(for error: DeviceError) -> String? {
        switch error {
        case .noCamera:
            "connect a camera, or use --camera test"
        case .noUsableCamera:
            "connect a webcam (UVC), or use --camera test; 'vidrec devices' shows why each node is passed over"
        case .cameraNotFound, .notACamera:
            "'vidrec devices' lists the cameras"
        case let .noSuchCameraIndex(_, available), let .noMatchingCamera(_, available):
            choices(available, noun: "cameras")
        case .ambiguousCamera:
            "give its path or index"
        case let .permissionDenied(_, group):
            "add yourself to the '\(group)' group (sudo usermod -aG \(group) $USER), then log in again"
        case let .microphoneBusy(_, holder?) where DeviceAdvice.soundServers.contains { holder.hasPrefix($0 + " ") }:
            "the sound server holds the card: record through it (--mic default), or stop the server"
        case .busy, .microphoneBusy:
            "close that program and try again"
        case .soundServerUnreachable:
            "outside a desktop session (cron, a system service) record from the card itself (--mic hw:…; 'vidrec devices' lists them), run vidrec as a user service ('vidrec service'), or set XDG_RUNTIME_DIR=/run/user/$(id -u)"
        case let .microphoneNotFound(_, _, available):
            choices(available, noun: "microphones")
        case .stopped:
            nil
        }
    }

    /// The programs that hold a sound card for a sound server.
    static let soundServers = ["pipewire", "wireplumber", "pipewire-pulse", "pulseaudio"]

    /// `error` with its advice, as one line.
    static func message(for error: DeviceError) -> String {
        advice(for: error).map { "\(error); \($0)" } ?? "\(error)"
    }

    private static func choices(_ available: [String], noun: String) -> String {
        available.isEmpty ? "there are no \(noun) ('vidrec devices' lists them)"
            : "'vidrec devices' lists them: \(available.joined(separator: ", "))"
    }
}
