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

    private func load() -> [String: [Item]] {
        guard let data = FileManager.default.contents(atPath: path),
              let albums = try? JSONDecoder().decode([String: [Item]].self, from: data) else { return [:] }
        return albums
    }

    private func store(_ albums: [String: [Item]]) throws {
        let data = try JSONEncoder().encode(albums)
        let temporary = path + ".tmp"
        try data.write(to: URL(fileURLWithPath: temporary))
        try systemCall("rename", path) { rename(temporary, path) }
    }

    /// Records that `file` was saved into its album now.
    public func recordSave(_ file: String) throws {
        let url = URL(fileURLWithPath: file).standardizedFileURL
        let album = url.deletingLastPathComponent().path
        var albums = load()
        albums[album, default: []].append(Item(name: url.lastPathComponent, saved: Date().timeIntervalSince1970))
        try store(albums)
    }

    /// Removes vidrec's oldest recordings from `album` beyond the newest `keep`, and
    /// beyond `maxBytes` in total (the newest is always kept).
    ///
    /// - Returns: the paths removed.
    public func prune(album: String, keep: Int?, maxBytes: Int64?) throws -> [String] {
        var albums = load()
        let folder = URL(fileURLWithPath: album).standardizedFileURL.path
        var items = (albums[folder] ?? []).sorted { $0.saved > $1.saved }
        // Forget files that are gone or are no longer regular files (never follow links).
        items = items.filter { item in
            var info = stat()
            return lstat(folder + "/" + item.name, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        }
        var kept: [Item] = []
        var removed: [String] = []
        var total: Int64 = 0
        for (index, item) in items.enumerated() {
            let file = folder + "/" + item.name
            var info = stat()
            lstat(file, &info)
            total += Int64(info.st_size)
            let overCount = keep.map { index >= $0 } ?? false
            let overSize = maxBytes.map { total > $0 } ?? false
            if index > 0, overCount || overSize {
                if unlink(file) == 0 { removed.append(file) } else { kept.append(item) }
            } else {
                kept.append(item)
            }
        }
        albums[folder] = kept
        try store(albums)
        return removed
    }
}
