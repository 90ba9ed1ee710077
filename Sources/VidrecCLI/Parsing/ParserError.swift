import VidrecMedia
import VidrecSystem

/// A usage error: the command line does not fit the command. Shown as `Error: …` plus
/// the usage, with exit status 64.
public enum ParserError: Error, Equatable, CustomStringConvertible {
    case unknownCommand(String, suggestion: String?)
    case unknownOption(String, suggestion: String?)
    case missingValue(String)
    case invalidValue(String, for: String, reason: String?)
    case unexpectedArgument(String)
    case missingArgument(String)
    case duplicateOption(String)
    case conflicting(String, String)

    public var description: String {
        switch self {
        case let .unknownCommand(name, suggestion):
            "Unknown command '\(name)'." + (suggestion.map { " Did you mean '\($0)'?" } ?? "")
        case let .unknownOption(name, suggestion):
            "Unknown option '\(name)'." + (suggestion.map { " Did you mean '\($0)'?" } ?? "")
        case let .missingValue(synopsis):
            "Missing value for '\(synopsis)'"
        case let .invalidValue(value, synopsis, reason):
            "The value '\(value)' is invalid for '\(synopsis)'" + (reason.map { ": \($0)" } ?? "")
        case let .unexpectedArgument(argument):
            "Unexpected argument '\(argument)'"
        case let .missingArgument(synopsis):
            "Missing expected argument '\(synopsis)'"
        case let .duplicateOption(synopsis):
            "Option '\(synopsis)' given more than once"
        case let .conflicting(a, b):
            "'\(a)' cannot be used with '\(b)'"
        }
    }
}

extension ParserError: ExitCoded {
    public var exitCode: ExitCode { .usage }
}
