import VidrecMedia

/// Finishes MP4 and MOV recordings in place: the fragments written while recording are
/// kept and an index is written beside them (``FragmentedMovieIndexer``), in the space
/// reserved at the front of the file when it fits, so the movie opens at once, seeks
/// anywhere and reports its duration without a scan. Matroska and WebM index
/// themselves in their trailer and need nothing.
public struct MovieFinalizer: Sendable, MovieFinalizing {
    /// Creates a finalizer.
    public init() {}

    public func indexes(_ container: Container) -> Bool { container.isFragmentedWhileRecording }

    @discardableResult
    public func finalize(_ path: String, trimToCommonEnd: Bool) throws -> Double {
        try FragmentedMovieIndexer().index(path, trimToCommonEnd: trimToCommonEnd)
    }
}
