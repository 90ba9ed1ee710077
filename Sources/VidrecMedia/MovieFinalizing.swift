/// Rewrites a recording that was written as fragments (or cut short by a crash) into
/// its final, indexed form. ``VidrecFFmpeg``'s `MovieFinalizer` is the real one.
public protocol MovieFinalizing: Sendable {
    /// Whether files in `container` need rewriting at all (otherwise they are renamed).
    func rewrites(_ container: String) -> Bool

    /// Writes `destination` (which must not exist) from `source`.
    ///
    /// - Returns: the playable duration of the result, in seconds.
    @discardableResult
    func finalize(source: String, destination: String) throws -> Double
}
