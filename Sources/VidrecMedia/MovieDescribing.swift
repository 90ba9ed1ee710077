/// Reads a ``MovieDescription`` from a file (libavformat, behind the core's back).
public protocol MovieDescribing: Sendable {
    /// Describes `path`.
    ///
    /// - Throws: when the file cannot be opened as a movie or picture.
    func describe(_ path: String) throws -> MovieDescription
}
