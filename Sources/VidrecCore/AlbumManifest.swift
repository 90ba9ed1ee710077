import Foundation
import Glibc
import VidrecMedia

/// The list of files vidrec saved into each album, so that `--keep N` and
/// `--album-max-size` remove only recordings vidrec made, never other files.
///
/// Kept as `<state>/albums.json`: album path → saved file names with their save time.
public struct AlbumManifest: Sendable {
    struct Item: Codable, Equatable {
        var name: String
        var saved: Double
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
        if let data = FileManager.default.contents(atPath: path) {
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
        try update { albums in
            albums[root, default: []].append(Item(name: name, saved: Date().timeIntervalSince1970))
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
        return try update { albums in (albums[folder] ?? []).map(\.name) }
    }

    /// Removes vidrec's oldest recording from `album`, but never its newest one: to make
    /// room on a full disk while a continuous recording goes on.
    ///
    /// - Returns: the path removed, or `nil` when only the newest (or nothing) is left.
    public func removeOldest(album: String) throws -> String? {
        try update { albums in
            let folder = URL(fileURLWithPath: album).standardizedFileURL.path
            var items = albums[folder] ?? []
            while items.count > 1 {
                let oldest = items.enumerated().min { ($0.element.saved, $0.offset) < ($1.element.saved, $1.offset) }!
                items.remove(at: oldest.offset)
                let file = folder + "/" + oldest.element.name
                guard let info = try? FileSystem.linkStatus(file), info.st_mode & S_IFMT == S_IFREG else { continue }
                if (try? FileSystem.unlink(file)) != nil {
                    albums[folder] = items
                    return file
                }
            }
            albums[folder] = items
            return nil
        }
    }

    /// Removes vidrec's oldest recordings from `album` beyond the newest `keep`, beyond
    /// `maxBytes` in total, and older than `maxAge` seconds (the newest is always kept).
    ///
    /// - Returns: the paths removed.
    public func prune(album: String, keep: Int?, maxBytes: Int64?, maxAge: Double? = nil) throws -> [String] {
        let now = Date().timeIntervalSince1970
        return try update { albums in
            let folder = URL(fileURLWithPath: album).standardizedFileURL.path
            // Newest first; saves within the same clock tick keep their order.
            let items = Array((albums[folder] ?? []).enumerated()
                .sorted { ($0.element.saved, $0.offset) > ($1.element.saved, $1.offset) }.map(\.element))
            // Forget files that are gone or are no longer regular files (never follow links).
            let sizes = items.map { item -> Int64? in
                guard let info = try? FileSystem.linkStatus(folder + "/" + item.name),
                      info.st_mode & S_IFMT == S_IFREG else { return nil }
                return Int64(info.st_size)
            }
            let present = zip(items, sizes).compactMap { item, size in size.map { (item, $0) } }
            var kept: [Item] = []
            var removed: [String] = []
            var total: Int64 = 0
            for (index, (item, size)) in present.enumerated() {
                let file = folder + "/" + item.name
                total += size
                let overCount = keep.map { index >= $0 } ?? false
                let overSize = maxBytes.map { total > $0 } ?? false
                let overAge = maxAge.map { now - item.saved > $0 } ?? false
                if index > 0, overCount || overSize || overAge {
                    if (try? FileSystem.unlink(file)) != nil { removed.append(file) } else { kept.append(item) }
                } else {
                    kept.append(item)
                }
            }
            albums[folder] = kept.reversed()  // stored oldest first, as saves append
            return removed
        }
    }
}
