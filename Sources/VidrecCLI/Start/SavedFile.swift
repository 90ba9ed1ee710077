/// A file that `vidrec start` saved to an album, as the parts that follow saved files
/// (``FollowUp``) hear of it.
struct SavedFile: Sendable, Equatable {
    /// What the file is.
    enum Kind: String, Sendable {
        /// The whole recording.
        case recording
        /// One segment of `--segment`.
        case segment
        /// One event of `--pre/--post`.
        case event
        /// A photo of `--snap-every`.
        case photo
    }

    /// Where it is now.
    var path: String
    /// The album it was saved to (`nil`: not known).
    var album: String?
    var kind: Kind
    /// Its recording ID, for a movie.
    var id: String?
    /// Its length in seconds, for a movie, when known.
    var duration: Double?
}
