import VidrecMedia
import VidrecSystem

/// Why a movie could not be indexed.
public enum MP4Error: Error, CustomStringConvertible, Sendable, Equatable {
    /// A box is shorter than its fields, or a field is out of range.
    case malformed(String, path: String)
    /// The file holds no movie header or no complete fragment: nothing to index.
    case nothingToIndex(String, path: String)

    public var description: String {
        switch self {
        case let .malformed(what, path): "\(path) is not a movie vidrec can index: \(what)"
        case let .nothingToIndex(what, path): "\(path) holds nothing playable: \(what)"
        }
    }
}

extension MP4Error: ExitCoded {
    /// A movie vidrec cannot index is damaged data.
    public var exitCode: ExitCode { .dataError }
}
