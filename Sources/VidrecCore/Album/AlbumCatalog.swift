import Foundation
import VidrecMedia
import VidrecSystem

/// The albums as something to browse (`vidrec list`, `vidrec show`): every movie and
/// photo in the album folders (the movies' and the photos') and their subfolders,
/// newest first, described from its own header. Files saved by hand are listed too, marked as not made by vidrec, and never
/// touched: the catalog only reads.
public struct AlbumCatalog: Sendable {
    /// The albums, the movies' first.
    public let albums: [Album]
    /// The first album, where a contact sheet goes.
    public var album: Album { albums[0] }
    /// The albums, for messages: `the album ~/Videos/vidrec` or `the albums … and …`.
    public var folders: String {
        (albums.count == 1 ? "the album " : "the albums ") + albums.map(\.path).joined(separator: " and ")
    }
    private let manifest: AlbumManifest
    private let describer: any MovieDescribing

    /// File name extensions listed as movies (sound recordings among them).
    public static let movieExtensions: Set<String> = ["mp4", "mov", "m4v", "mkv", "webm", "m4a", "opus"]
    /// File name extensions listed as photos.
    public static let photoExtensions: Set<String> = ["jpg", "jpeg", "png"]

    /// A catalog of `albums` (at least one; the same folder twice counts once);
    /// `manifest` tells what vidrec saved there.
    public init(albums: [Album], manifest: AlbumManifest, describer: any MovieDescribing) {
        precondition(!albums.isEmpty)
        var seen = Set<String>()
        self.albums = albums.filter { seen.insert(URL(fileURLWithPath: $0.path).standardizedFileURL.path).inserted }
        self.manifest = manifest
        self.describer = describer
    }

    /// A catalog of one album.
    public init(album: Album, manifest: AlbumManifest, describer: any MovieDescribing) {
        self.init(albums: [album], manifest: manifest, describer: describer)
    }

    /// Every movie and photo, newest first (by recording time, then name). Hidden files
    /// and folders (`.thumbnails`, a save's temporary file) are left out.
    ///
    /// - Throws: ``StoreError/albumNotAFolder(_:)`` when the album path is a file. An
    ///   album that does not exist yet is empty.
    public func items() throws -> [AlbumItem] {
        try albums.flatMap(items(in:)).sorted { ($0.date, $1.name) > ($1.date, $0.name) }
    }

    private func items(in album: Album) throws -> [AlbumItem] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: album.path, isDirectory: &isFolder) else { return [] }
        guard isFolder.boolValue else { throw StoreError.albumNotAFolder(album.path) }
        let saved = Set((try? manifest.savedFiles(album: album.path)) ?? [])
        var items: [AlbumItem] = []
        for name in mediaFiles(in: album) {
            let path = album.path + "/" + name
            guard let info = try? FileSystem.linkStatus(path), info.st_mode & S_IFMT == S_IFREG else { continue }
            let ext = (name as NSString).pathExtension.lowercased()
            var item = AlbumItem(name: name, path: path, album: album.path, kind: Self.photoExtensions.contains(ext) ? .photo : .video,
                                 date: Date(timeIntervalSince1970: Double(info.st_mtim.tv_sec)), bytes: Int64(info.st_size),
                                 madeByVidrec: saved.contains(name))
            let thumbnail = AlbumSaver.thumbnailPath(for: path)
            if let thumbnailInfo = try? FileSystem.status(thumbnail), thumbnailInfo.st_mode & S_IFMT == S_IFREG {
                item.thumbnail = thumbnail
            }
            do {
                let description = try describer.describe(path)
                item.movie = description
                if description.width == nil, item.kind == .video { item.kind = .audio }
                if let created = description.tags[MovieMetadataKey.creationTime].flatMap(Self.parseTime) { item.date = created }
                if description.tags[MovieMetadataKey.preset] != nil { item.madeByVidrec = true }
            } catch {
                item.unreadable = "\(error)"
            }
            items.append(item)
        }
        return items
    }

    /// The item called `name`: its path below the album, with or without the extension.
    ///
    /// - Throws: ``StoreError/notInAlbum(_:album:suggestion:)`` naming the closest name.
    public func item(named name: String) throws -> AlbumItem {
        let all = try items()
        if let exact = all.first(where: { $0.name == name }) { return exact }
        let bare = all.filter { ($0.name as NSString).deletingPathExtension == name }
        if let only = bare.first, bare.count == 1 { return only }
        throw StoreError.notInAlbum(name, album: folders,
                                    suggestion: Suggestion.closest(to: name, in: all.map { ($0.name as NSString).deletingPathExtension }))
    }

    /// `album`'s movie and photo files, as paths below it, without hidden entries.
    private func mediaFiles(in album: Album) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: album.path) else { return [] }
        var names: [String] = []
        while let name = walker.nextObject() as? String {
            let last = (name as NSString).lastPathComponent
            if last.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            let ext = (last as NSString).pathExtension.lowercased()
            if Self.movieExtensions.contains(ext) || Self.photoExtensions.contains(ext) { names.append(name) }
        }
        return names
    }

    /// Reads `2026-11-30T10:15:00.123456Z` (libavformat's `creation_time`), with or without
    /// fractional seconds.
    static func parseTime(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
