/// What a shell completes for an argument's value: nothing (free text such as a number),
/// fixed words, files, folders, or words vidrec lists at completion time
/// (`vidrec completions --values KIND`).
enum CompletionValues: Equatable {
    case none
    case words([String])
    case files
    case directories
    case listed(Kind)

    /// What vidrec lists when the shell asks.
    enum Kind: String, CaseIterable {
        /// Preset names, built-in and the user's.
        case presets
        /// Cameras: device paths and the test sources.
        case cameras
        /// Microphones: ALSA names and the test source.
        case microphones
        /// IDs of pending recordings and photos.
        case pending
        /// IDs of recordings running now.
        case running
        /// Names in the album.
        case album
    }

    /// The values of `argument` of subcommand `command` (the ID a `stop` takes is a
    /// running recording's, the one `save` takes a pending one's).
    static func of(_ argument: ArgumentSpec, in command: String, subcommands: [String]) -> CompletionValues {
        switch argument.kind {
        case .flag:
            return .none
        case .positional:
            switch (command, argument.name) {
            case ("stop", "id"), ("switch", "id"), ("trigger", "id"), ("pause", "id"), ("resume", "id"): return .listed(.running)
            case (_, "id"): return .listed(.pending)
            case ("show", "name"): return .listed(.album)
            case ("help", "subcommand"): return .words(subcommands)
            case ("completions", "shell"): return .words(["bash", "zsh", "fish"])
            default: return .none
            }
        case .option(let value):
            switch argument.name {
            case "quality": return .listed(.presets)
            case "camera": return .listed(.cameras)
            case "mic": return .listed(.microphones)
            case "camera-format": return .words(["YUYV", "UYVY", "NV12", "YU12", "YV12", "RGB3", "BGR3", "MJPG", "JPEG", "H264"])
            case "fit": return .words(["crop", "pad", "stretch"])
            case "rotate": return .words(["90", "180", "270"])
            case "trigger": return .words(["motion"])
            case "values": return .words(Kind.allCases.map(\.rawValue))
            default: break
            }
            switch value {
            case "dir": return .directories
            case "file": return .files
            default:
                // `auto|copy|encode`, `on|off`, `max|WxH`: the literal words.
                let words = value.split(separator: "|").map(String.init).filter { $0.allSatisfy { $0.isLowercase } }
                return value.contains("|") && !words.isEmpty ? .words(words) : .none
            }
        }
    }
}
