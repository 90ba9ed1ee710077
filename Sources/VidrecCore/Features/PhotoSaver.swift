import Foundation
import VidrecMedia
import VidrecSystem

/// Keeps still photos as `vidrec snap` does, for any part of vidrec that takes them:
/// each photo is a pending entry of its own (a sidecar with `container` `jpeg`, locked
/// while its JPEG is written), finished like a recording, and saved to a photo album by
/// ``AlbumSaver`` like a movie, where retention counts photos apart from movies.
public struct PhotoSaver: Sendable {
    private let store: RecordingStore
    private let saver: AlbumSaver

    /// Creates a photo saver over the pending area `store`, saving through `saver`.
    public init(store: RecordingStore, saver: AlbumSaver) {
        self.store = store
        self.saver = saver
    }

    /// Keeps a photo in the pending area: creates its entry, lets `write` put the JPEG
    /// at the partial path it is given (durably) and note what it knows in the sidecar
    /// (size, camera, how it was taken), then marks it finished and unlocks it.
    ///
    /// - Parameters:
    ///   - date: when the photo was taken (its ID comes from it).
    ///   - camera: the camera's name, and its device path (`nil`: none).
    ///   - name: the name to save it under (`--as`), if any.
    ///   - pid: the process taking it.
    /// - Returns: the finished entry.
    /// - Throws: the store's errors, or `write`'s; nothing is left pending then.
    public func keep(at date: Date, camera: String, cameraPath: String?, name: String? = nil, pid: Int32,
                     write: (_ path: String, _ sidecar: inout RecordingSidecar) throws -> Void) throws -> RecordingStore.Entry {
        let (entry, lock) = try store.create(at: date) { id in
            var sidecar = RecordingSidecar(id: id, preset: "photo", presetFile: "", camera: camera, microphone: nil,
                                           container: .jpeg, startTime: date, pid: pid, maxDuration: nil)
            sidecar.cameraPath = cameraPath
            sidecar.saveName = name
            return sidecar
        }
        var sidecar = entry.sidecar
        do {
            try write(entry.partialPath, &sidecar)
            try store.finalize(entry, with: saver.finalizer)
            sidecar.state = .finished
            try store.write(sidecar)
        } catch {
            store.abandon(entry)
            throw error
        }
        FileSystem.removeQuietly(entry.lockPath)
        withExtendedLifetime(lock) {}
        return try store.entry(id: entry.id)
    }

    /// Writes `photo` into a new pending entry (``keep(at:camera:cameraPath:name:pid:write:)``).
    ///
    /// - Parameter how: what the sidecar says of how it was taken (its `endReason`).
    public func keep(_ photo: EncodedPhoto, at date: Date, camera: String, cameraPath: String?, name: String? = nil,
                     pid: Int32, how: String) throws -> RecordingStore.Entry {
        try keep(at: date, camera: camera, cameraPath: cameraPath, name: name, pid: pid) { path, sidecar in
            try AtomicFile.write(Data(photo.bytes), to: path, durable: true)
            sidecar.photoSize = "\(photo.width)x\(photo.height)"
            sidecar.endReason = how
        }
    }

    /// Saves a kept photo to the photo album of `request`, with its retention.
    ///
    /// - Returns: the saved path, and the photos removed from the album.
    public func save(_ entry: RecordingStore.Entry, to request: SaveRequest) throws -> (saved: String, removed: [String]) {
        try saver.save(entry, to: request)
    }
}
