/// One segment of a continuous recording, as it closed.
public struct SegmentReport: Sendable {
    /// Its number in the recording, from 0.
    public var index: Int
    /// Its pending ID.
    public var id: String
    /// Its length in seconds, as its file plays.
    public var duration: Double?
    /// Where it was saved in the album (with `--save`).
    public var savedPath: String?
    /// Older recordings removed from the album after saving it.
    public var removedFromAlbum: [String] = []
    /// What went wrong with it, if anything (it then stays pending).
    public var problem: String?
}
