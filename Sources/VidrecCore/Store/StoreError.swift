import VidrecMedia
import VidrecSystem

/// Why a pending-area or album operation failed. Each message names the path or ID
/// and the fix.
public enum StoreError: Error, CustomStringConvertible {
    /// Nothing pending to act on.
    case nothingPending(command: String)
    /// No pending recording with that ID.
    case unknownID(String, available: [String])
    /// The recording is still being written.
    case stillRecording(String, pid: Int32)
    /// The album path exists but is not a folder.
    case albumNotAFolder(String)
    /// A folder could not be created or written.
    case cannotWrite(path: String, reason: String)
    /// The recording's media file is missing.
    case missingFile(String)
    /// `--as` names something that is not a plain file name.
    case invalidName(String)
    /// A pending recording's sidecar could not be used (it is rebuilt from the media).
    case damagedSidecar(String, reason: String)
    /// `vidrec show` names nothing in the album.
    case notInAlbum(String, album: String, suggestion: String?)

    public var description: String {
        switch self {
        case let .nothingPending(command):
            "nothing to \(command): there are no finished recordings; record one with 'vidrec start'"
        case let .unknownID(id, available):
            "no pending recording '\(id)'" + (available.isEmpty ? "; there are none" : "; 'vidrec pending' lists them: \(available.joined(separator: ", "))")
        case let .stillRecording(id, pid):
            "recording \(id) is still being written (pid \(pid)); stop it first with 'vidrec stop'"
        case let .albumNotAFolder(path):
            "album \(path) is not a folder; remove it or choose another album with --album DIR"
        case let .cannotWrite(path, reason):
            "cannot write to \(path): \(reason); choose another folder or fix its permissions"
        case let .missingFile(path):
            "the recording's file \(path) is missing; discard it with 'vidrec discard'"
        case let .notInAlbum(name, album, suggestion):
            "nothing called '\(name)' in \(album)" + (suggestion.map { "; did you mean '\($0)'?" } ?? "; 'vidrec list' shows what is there")
        case let .damagedSidecar(path, reason):
            "the sidecar \(path) cannot be used: \(reason)"
        case let .invalidName(name):
            "'\(name)' is not a file name; give a plain name without '/', such as --as holiday"
        }
    }
}

extension StoreError: ExitCoded {
    public var exitCode: ExitCode {
        switch self {
        case .nothingPending, .unknownID, .missingFile, .notInAlbum: .noInput
        case .stillRecording: .temporaryFailure
        case .albumNotAFolder, .cannotWrite: .cannotCreate
        case .invalidName: .usage
        case .damagedSidecar: .dataError
        }
    }
}
