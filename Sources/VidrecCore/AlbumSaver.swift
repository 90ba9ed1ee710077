import Foundation
import VidrecMedia

/// The save step, as `UISaveVideoAtPathToSavedPhotosAlbum` is on iOS: commits a pending
/// recording to the album, remembers the file as vidrec's, and applies the album's
/// limits (`--keep`, `--album-max-size`) to vidrec's own files only.
public struct AlbumSaver: Sendable {
    /// The pending area.
    public let store: RecordingStore
    /// The record of which album files vidrec saved.
    public let manifest: AlbumManifest
    /// Rewrites fragments into an indexed movie (or recovers a killed recording).
    public let finalizer: any MovieFinalizing

    /// Creates a saver; see the properties for the meaning of each argument.
    public init(store: RecordingStore, manifest: AlbumManifest, finalizer: any MovieFinalizing) {
        self.store = store
        self.manifest = manifest
        self.finalizer = finalizer
    }

    /// Saves `entry` into `request`'s album under `name` (or the name chosen at start,
    /// or `vidrec-ID`), then removes vidrec's oldest recordings beyond the album's limits.
    ///
    /// - Returns: the saved path, and the paths removed from the album.
    public func save(_ entry: RecordingStore.Entry, to request: SaveRequest, name: String? = nil) throws
        -> (saved: String, removed: [String]) {
        let saved = try store.commit(entry, to: request.album, name: name, finalizer: finalizer)
        try manifest.recordSave(saved)
        guard request.keep != nil || request.albumMaxSize != nil else { return (saved, []) }
        let album = URL(fileURLWithPath: saved).deletingLastPathComponent().path
        let removed = try manifest.prune(album: album, keep: request.keep, maxBytes: request.albumMaxSize)
        return (saved, removed)
    }
}
