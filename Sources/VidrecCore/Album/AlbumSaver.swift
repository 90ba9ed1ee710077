import Foundation
import Glibc
import VidrecMedia
import VidrecSystem

/// The save step, as `UISaveVideoAtPathToSavedPhotosAlbum` is on iOS: commits a pending
/// recording to the album, remembers the file as vidrec's, and applies the album's
/// limits (`--keep`, `--album-max-size`, `--max-age`) to vidrec's own files only.
public struct AlbumSaver: Sendable {
    /// The pending area.
    public let store: RecordingStore
    /// The record of which album files vidrec saved.
    public let manifest: AlbumManifest
    /// Rewrites fragments into an indexed movie (or recovers a killed recording).
    public let finalizer: any MovieFinalizing
    /// Makes the saved movie's poster frame for `.thumbnails/` (`nil`: none).
    public let posterFrames: (any PosterFrameMaking)?
    /// Hears what went wrong without failing the save (a poster frame that could not be made).
    public let warn: @Sendable (String) -> Void

    /// The poster frames' width, in pixels.
    public static let thumbnailWidth = 320

    /// Creates a saver; see the properties for the meaning of each argument.
    public init(store: RecordingStore, manifest: AlbumManifest, finalizer: any MovieFinalizing,
                posterFrames: (any PosterFrameMaking)? = nil, warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.warn = warn
        self.store = store
        self.manifest = manifest
        self.finalizer = finalizer
        self.posterFrames = posterFrames
    }

    /// Where the poster frame of the album file `path` goes: `.thumbnails/NAME.jpg` beside
    /// it (`door.mp4` → `.thumbnails/door.mp4.jpg`, so that a movie and a photo of the
    /// same name do not share one).
    public static func thumbnailPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        return url.deletingLastPathComponent().appendingPathComponent(".thumbnails")
            .appendingPathComponent(url.lastPathComponent + ".jpg").path
    }

    /// Makes room on a full disk for a continuous recording: removes vidrec's oldest
    /// saved recording from `album` (never its newest, never another file), with its
    /// poster frame.
    ///
    /// - Returns: the path removed, or `nil` when there is nothing left to remove.
    public func removeOldest(from album: Album) -> String? {
        guard let removed = try? manifest.removeOldest(album: album.path) else { return nil }
        removeLeftovers(of: removed, in: album.path)
        return removed
    }

    /// Saves `entry` into `request`'s album under `name` (or the name chosen at start,
    /// or `vidrec-ID`), then removes vidrec's oldest recordings beyond the album's limits.
    ///
    /// A poster frame that cannot be made costs nothing but the thumbnail: the movie is
    /// saved. A sound file has none.
    ///
    /// - Returns: the saved path, and the paths removed from the album (whose thumbnails
    ///   are removed with them).
    public func save(_ entry: RecordingStore.Entry, to request: SaveRequest, name: String? = nil) throws
        -> (saved: String, removed: [String]) {
        let saved = try store.commit(entry, to: request.album, name: name, finalizer: finalizer)
        try manifest.recordSave(saved, album: request.album.path)
        makeThumbnail(for: saved)
        guard request.keep != nil || request.albumMaxSize != nil || request.maxAge != nil else { return (saved, []) }
        let album = request.album.path
        let removed = try manifest.prune(album: album, keep: request.keep, maxBytes: request.albumMaxSize,
                                         maxAge: request.maxAge?.doubleValue, photos: entry.isPhoto)
        for path in removed { removeLeftovers(of: path, in: album) }
        return (saved, removed)
    }

    /// After `path` was removed from `album`: its poster frame, and the folders below the
    /// album (`2026/11/30/`) that it leaves empty.
    private func removeLeftovers(of path: String, in album: String) {
        FileSystem.removeQuietly(AlbumSaver.thumbnailPath(for: path))
        let root = URL(fileURLWithPath: album).standardizedFileURL.path
        var folder = URL(fileURLWithPath: path).standardizedFileURL.deletingLastPathComponent().path
        while folder.hasPrefix(root + "/") {
            _ = try? FileSystem.removeDirectory(folder + "/.thumbnails")
            guard (try? FileSystem.removeDirectory(folder)) != nil else { return }
            folder = (folder as NSString).deletingLastPathComponent
        }
    }

    private func makeThumbnail(for saved: String) {
        guard let posterFrames else { return }
        let path = AlbumSaver.thumbnailPath(for: saved)
        do {
            guard let jpeg = try posterFrames.posterFrame(of: saved, width: AlbumSaver.thumbnailWidth) else { return }
            let folder = (path as NSString).deletingLastPathComponent
            if !FileSystem.isDirectory(folder) { try FileSystem.makeDirectory(folder, mode: 0o755) }
            try AtomicFile.write(Data(jpeg), to: path, durable: false)
        } catch {
            warn("no poster frame for \(saved) (\(error)); the movie is saved")
        }
    }
}
