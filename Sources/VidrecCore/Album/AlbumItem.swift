import Foundation
import VidrecMedia

/// One movie or photo in the album, as `vidrec list` and `vidrec show` present it.
public struct AlbumItem: Sendable {
    /// A movie, a sound recording (a file without video, `--camera none`) or a still
    /// picture.
    public enum Kind: String, Sendable {
        case video, audio, photo
    }

    /// The path below the album (`door.mp4`, `2026/11/30/door.mp4`).
    public var name: String
    /// The full path.
    public var path: String
    /// The album folder it is in (``path`` is this, `/`, ``name``).
    public var album: String
    /// Movie or photo, by the file's extension; sound, for a movie file without video.
    public var kind: Kind
    /// When it was recorded: the movie's `creation_time`, else the file's modification time.
    public var date: Date
    /// Bytes on disk.
    public var bytes: Int64
    /// Whether vidrec saved it (it is in the album manifest, or carries vidrec's tags);
    /// vidrec never removes or changes anything else.
    public var madeByVidrec: Bool
    /// What the file's header says; `nil` when it cannot be read as a movie or picture.
    public var movie: MovieDescription?
    /// Why the header could not be read, if it could not.
    public var unreadable: String?
    /// Its poster frame in `.thumbnails/`, if there is one.
    public var thumbnail: String?
    /// The poster frame's path below the album (`2026/.thumbnails/door.mp4.jpg`), where
    /// ``thumbnail`` would be.
    public var thumbnailName: String {
        let folder = (name as NSString).deletingLastPathComponent
        return (folder.isEmpty ? "" : folder + "/") + ".thumbnails/" + (name as NSString).lastPathComponent + ".jpg"
    }

    /// The quality preset it was recorded with, from its tags.
    public var preset: String? { movie?.tags[MovieMetadataKey.preset] }
    /// The camera it was recorded from, from its tags.
    public var camera: String? { movie?.tags[MovieMetadataKey.camera] }
    /// The picture's size, `1280x720`.
    public var resolution: String? {
        guard let width = movie?.width, let height = movie?.height, width > 0, height > 0 else { return nil }
        return "\(width)x\(height)"
    }
}
