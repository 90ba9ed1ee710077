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
}
