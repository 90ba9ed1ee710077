import VidrecMedia
import VidrecSystem

/// Why a preset could not be used. Every case names the file (or the name asked for)
/// and says what is allowed.
public enum PresetError: Error, Equatable, CustomStringConvertible {
    /// No preset by that name in any preset folder.
    case unknown(name: String, available: [String], suggestion: String?)
    /// The file could not be read.
    case unreadable(file: String, reason: String)
    /// The file is not valid JSON, or not a JSON object.
    case malformed(file: String, reason: String)
    /// A field is missing, unknown, or has a value outside what is allowed.
    case invalidField(file: String, field: String, problem: String)

    /// The message, with any control character from the file or the name shown as an
    /// escape (``TextSafety/printable(_:)``): a preset is the user's input.
    public var description: String { TextSafety.printable(text) }

    private var text: String {
        switch self {
        case let .unknown(name, available, suggestion):
            let hint = suggestion.map { " Did you mean '\($0)'?" } ?? ""
            return "unknown quality preset '\(name)'.\(hint) Available: \(available.joined(separator: ", ")) (or a path to a preset file)"
        case let .unreadable(file, reason):
            return "cannot read preset '\(file)': \(reason)"
        case let .malformed(file, reason):
            return "preset '\(file)' is not valid JSON: \(reason)"
        case let .invalidField(file, field, problem):
            return "preset '\(file)': field '\(field)' \(problem)"
        }
    }
}

extension PresetError: ExitCoded {
    public var exitCode: ExitCode { .dataError }
}
