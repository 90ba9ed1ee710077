/// Finishes a recording that was written as fragments (or cut short by a crash) into
/// its final, indexed form, in place. ``VidrecMP4``'s `MovieFinalizer` is the real one.
public protocol MovieFinalizing: Sendable {
    /// Whether files in `container` need an index written at all (otherwise they are
    /// final as written, and only renamed).
    func indexes(_ container: Container) -> Bool

    /// Writes the index of the recording at `path` into the file itself: the media data
    /// stays where it is, so this costs the size of the index, not of the movie. Doing
    /// it again, also after a crash part-way through, finishes the same file.
    ///
    /// - Parameter trimToCommonEnd: end every stream where the shortest ends (within
    ///   one video frame): for a recording cut off by a crash, whose last fragment may
    ///   hold more of one stream than of the other.
    /// - Returns: the playable duration of the result, in seconds.
    @discardableResult
    func finalize(_ path: String, trimToCommonEnd: Bool) throws -> Double
}
