/// Rewrites a recording that was written as fragments (or cut short by a crash) into
/// its final, indexed form. ``VidrecFFmpeg``'s `MovieFinalizer` is the real one.
public protocol MovieFinalizing: Sendable {
    /// Whether files in `container` need rewriting at all (otherwise they are renamed).
    func rewrites(_ container: Container) -> Bool

    /// Writes `destination` (which must not exist) from `source`.
    ///
    /// - Parameter trimToCommonEnd: end every stream where the shortest ends (within
    ///   one video frame): for a recording cut off by a crash, whose last fragment may
    ///   hold more of one stream than of the other.
    /// - Returns: the playable duration of the result, in seconds.
    @discardableResult
    func finalize(source: String, destination: String, trimToCommonEnd: Bool) throws -> Double
}
