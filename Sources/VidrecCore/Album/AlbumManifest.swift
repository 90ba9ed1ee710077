import Foundation
import Glibc
import VidrecMedia
import VidrecSystem

/// The list of files vidrec saved into each album, so that `--keep N` and
/// `--album-max-size` remove only recordings vidrec made, never other files.
///
/// Kept as `<state>/albums.json`: album path → saved file names with their save time
/// and the file's identity when saved (device, inode, size, modification time). A file
/// is removed only while all four still match: a file the user put under the same
/// name since, or changed, is theirs, and stays. Entries of an older vidrec, which kept
/// no identity, are never removed; names that are not plain album paths (`../x`, `/x`)
/// are ignored.
public struct AlbumManifest: Sendable {
    struct Item: Codable, Equatable {
        var name: String
        var saved: Double
        var device: UInt64?
        var inode: UInt64?
        var size: Int64?
        /// The modification time, in nanoseconds since 1970.
        var modified: Int64?

        /// The identity of the regular file at `path` now, or `nil` when there is none.
        static func identity(of path: String) -> (device: UInt64, inode: UInt64, size: Int64, modified: Int64)? {
            guard let info = try? FileSystem.linkStatus(path), info.st_mode & S_IFMT == S_IFREG else { return nil }
            return (UInt64(info.st_dev), UInt64(info.st_ino), Int64(info.st_size),
                    Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec))
        }

        /// The size of the file vidrec saved under this name, when it is still that
        /// file, unchanged; `nil` otherwise (gone, replaced, changed, or unknown).
        func unchangedSize(in folder: String) -> Int64? {
            guard RecordingStore.isValidAlbumPath(name), let device, let inode, let size, let modified,
                  let now = Item.identity(of: folder + "/" + name),
                  now == (device, inode, size, modified) else { return nil }
            return size
        }
    }

    /// The manifest file.
    public let path: String

    /// A manifest under the state folder.
    public init(stateDirectory: String) { path = stateDirectory + "/albums.json" }

    /// Runs `body` on the manifest under an exclusive lock (`albums.json.lock`), so that
    /// two saves at once (cron and a person) never lose each other's entries, and
    /// writes the result durably (write, fsync, rename).
    ///
    /// A manifest that cannot be read is moved aside to `albums.json.damaged` rather
    /// than silently reset; vidrec then prunes only what it saves from then on.
    private func update<T>(_ body: (inout [String: [Item]]) throws -> T) throws -> T {
        let lockPath = path + ".lock"
        let lock = try FileDescriptor.open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW)
        defer { lock.close() }
        try lock.lock(LOCK_EX, lockPath)
        var albums: [String: [Item]] = [:]
        if let data = try StateFile.read(path) {
            if let decoded = try? JSONDecoder().decode([String: [Item]].self, from: data) {
                albums = decoded
            } else {
                try FileSystem.rename(path, to: path + ".damaged")
            }
        }
        let result = try body(&albums)
        let data = try JSONEncoder().encode(albums)
        try AtomicFile.write(data, to: path, durable: true)
        return result
    }

    /// Records that `file` was saved into `album` now (by default the folder it is in;
    /// a file in a folder below the album, `2026/11/30/door.mp4`, is kept under the album
    /// by that relative name, so that `--keep` and the rest count the whole album).
    public func recordSave(_ file: String, album: String? = nil) throws {
        let url = URL(fileURLWithPath: file).standardizedFileURL
        var root = url.deletingLastPathComponent().path
        var name = url.lastPathComponent
        if let album, let relative = Album.name(of: file, in: album) {
            root = URL(fileURLWithPath: album).standardizedFileURL.path
            name = relative
        }
        let identity = Item.identity(of: url.path)
        try update { albums in
            albums[root, default: []].append(Item(name: name, saved: Date().timeIntervalSince1970, device: identity?.device,
                                                  inode: identity?.inode, size: identity?.size, modified: identity?.modified))
        }
    }

    /// Forgets `file`, saved into `album`, which vidrec moved away (`--upload-move`).
    public func forget(_ file: String, album: String) throws {
        guard let name = Album.name(of: file, in: album) else { return }
        let folder = URL(fileURLWithPath: album).standardizedFileURL.path
        try update { albums in albums[folder]?.removeAll { $0.name == name } }
    }

    /// The names of the files vidrec saved into `album`, oldest first.
    public func savedFiles(album: String) throws -> [String] {
        let folder = URL(fileURLWithPath: album).standardizedFileURL.path
        return try update { albums in (albums[folder] ?? []).map(\.name).filter(RecordingStore.isValidAlbumPath) }
    }

    /// Removes vidrec's oldest recording from `album`, but never its newest one: to make
    /// room on a full disk while a continuous recording goes on.
    ///
    /// - Returns: the path removed, or `nil` when only the newest (or nothing) is left.
    public func removeOldest(album: String) throws -> String? {
        try update { albums in
            let folder = URL(fileURLWithPath: album).standardizedFileURL.path
            let items = albums[folder] ?? []
            let order = items.indices.sorted { (items[$0].saved, $0) < (items[$1].saved, $1) }
            var forgotten: Set<Int> = []
            var removed: String?
            for index in order.dropLast() {
                switch AlbumManifest.standing(of: items[index], in: folder) {
                case .legacy: continue
                case .notVidrecs: forgotten.insert(index)
                case .unchanged:
                    let file = folder + "/" + items[index].name
                    guard (try? FileSystem.unlink(file)) != nil else { continue }
                    forgotten.insert(index)
                    removed = file
                }
                if removed != nil { break }
            }
            albums[folder] = items.enumerated().filter { !forgotten.contains($0.offset) }.map(\.element)
            return removed
        }
    }

    /// Removes vidrec's oldest recordings from `album` beyond the newest `keep`, beyond
    /// `maxBytes` in total, and older than `maxAge` seconds (the newest is always kept).
    /// Only files vidrec saved and that are unchanged since count and go, and only those
    /// of one kind: movies and photos are counted apart, so that a photo saved to an
    /// album that also holds movies never pushes a movie out, nor a movie a photo.
    ///
    /// - Parameter photos: count and remove photos (JPEGs), else movies.
    /// - Returns: the paths removed.
    public func prune(album: String, keep: Int?, maxBytes: Int64?, maxAge: Double? = nil, photos: Bool = false) throws -> [String] {
        let now = Date().timeIntervalSince1970
        return try update { albums in
            let folder = URL(fileURLWithPath: album).standardizedFileURL.path
            // Newest first; saves within the same clock tick keep their order.
            let items = Array((albums[folder] ?? []).enumerated()
                .sorted { ($0.element.saved, $0.offset) > ($1.element.saved, $1.offset) }.map(\.element))
            var kept: [Item] = []
            var removed: [String] = []
            var total: Int64 = 0
            var index = 0
            for item in items {
                guard AlbumManifest.isPhoto(item.name) == photos else {
                    kept.append(item)
                    continue
                }
                let size: Int64
                switch AlbumManifest.standing(of: item, in: folder) {
                case .legacy:
                    kept.append(item)
                    continue
                case .notVidrecs:
                    continue  // gone, replaced or changed: forgotten, never removed
                case .unchanged(let bytes):
                    size = bytes
                }
                let file = folder + "/" + item.name
                total = total.addingReportingOverflow(size).partialValue
                let overCount = keep.map { index >= $0 } ?? false
                let overSize = maxBytes.map { total > $0 } ?? false
                let overAge = maxAge.map { now - item.saved > $0 } ?? false
                if index > 0, overCount || overSize || overAge, (try? FileSystem.unlink(file)) != nil {
                    removed.append(file)
                } else {
                    kept.append(item)
                }
                index += 1
            }
            albums[folder] = kept.reversed()  // stored oldest first, as saves append
            return removed
        }
    }

    /// Whether a saved file is a photo (a JPEG), by its name in the album.
    static func isPhoto(_ name: String) -> Bool {
        name.lowercased().hasSuffix("." + Container.jpeg.fileExtension)
    }

    /// What vidrec may do with a manifest entry's file.
    private enum Standing {
        /// Saved by a vidrec that kept no identity: listed, never removed.
        case legacy
        /// Gone, replaced, changed, or a name that is not a plain album path.
        case notVidrecs
        /// vidrec's file, unchanged since it was saved: it may go.
        case unchanged(bytes: Int64)
    }

    private static func standing(of item: Item, in folder: String) -> Standing {
        guard RecordingStore.isValidAlbumPath(item.name) else { return .notVidrecs }
        if item.device == nil {
            return Item.identity(of: folder + "/" + item.name) == nil ? .notVidrecs : .legacy
        }
        return item.unchangedSize(in: folder).map { .unchanged(bytes: $0) } ?? .notVidrecs
    }
}
