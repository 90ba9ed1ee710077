import VidrecCore

/// Checks a file name asked for in the album (`--as`, or `--name` once expanded): a
/// plain file name, no folders, not hidden, not too long.
enum AlbumFileName {
    /// `name`, or a usage error naming `option`; `nil` stays `nil`.
    static func validated(_ name: String?, option: String = "--as <name>") throws(ParserError) -> String? {
        guard let name else { return nil }
        if !RecordingStore.isValidName(name) {
            throw .invalidValue(name, for: option, reason: "give a plain file name of at most \(RecordingStore.maximumNameBytes) bytes, without '/', that does not start with '.'")
        }
        return name
    }

    /// `name` with folders allowed (`--name '%Y/%m/%d/door-%H%M%S'` once expanded), or a
    /// usage error naming `option`.
    static func validatedPath(_ name: String, option: String) throws(ParserError) -> String {
        if !RecordingStore.isValidAlbumPath(name) {
            throw .invalidValue(name, for: option, reason: "give a file name of at most \(RecordingStore.maximumNameBytes) bytes, not starting with '.', after folder names such as %Y/%m/%d/")
        }
        return name
    }
}
