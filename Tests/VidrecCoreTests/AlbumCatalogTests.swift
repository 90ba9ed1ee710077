import Foundation
import Testing
import VidrecCore
import VidrecMedia

/// The album catalog's rules, with a scripted header reader instead of libavformat:
/// which files are items, in what order, which are vidrec's, and how names are found.
@Suite struct AlbumCatalogTests {
    /// Headers by file name; a name it does not know cannot be read.
    struct ScriptedHeaders: MovieDescribing {
        var headers: [String: MovieDescription]
        struct Unreadable: Error {}
        func describe(_ path: String) throws -> MovieDescription {
            guard let header = headers[(path as NSString).lastPathComponent] else { throw Unreadable() }
            return header
        }
    }

    static func movie(created: String?, preset: String? = nil) -> MovieDescription {
        var tags: [String: String] = [:]
        tags[MovieMetadataKey.creationTime] = created
        tags[MovieMetadataKey.preset] = preset
        return MovieDescription(duration: 2, width: 640, height: 360, frameRate: 15, codecs: ["h264"], tags: tags)
    }

    @Test func itemsAreNewestFirstAndOnlyVidrecsAreMarkedAsVidrecs() throws {
        let album = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        for name in ["old.mp4", "new.mp4", "2026/11/nested.mkv", "tagged.mov", "photo.JPG", "broken.mp4", "notes.txt",
                     ".hidden.mp4", ".thumbnails/new.mp4.jpg"] {
            _ = try album.write(name, "x")
        }
        let manifest = AlbumManifest(stateDirectory: state.path)
        try manifest.recordSave(album.path + "/new.mp4")
        // A file without a creation time is dated by its modification time.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)],
                                              ofItemAtPath: album.path + "/photo.JPG")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_000_000_000)],
                                              ofItemAtPath: album.path + "/broken.mp4")
        let headers = ScriptedHeaders(headers: [
            "old.mp4": Self.movie(created: "2026-01-01T10:00:00Z"),
            "new.mp4": Self.movie(created: "2026-11-30T10:00:00.250Z"),
            "nested.mkv": Self.movie(created: "2026-06-01T10:00:00Z"),
            "tagged.mov": Self.movie(created: "2026-03-01T10:00:00Z", preset: "low"),
            "photo.JPG": MovieDescription(duration: 0, width: 4000, height: 3000, frameRate: nil, codecs: ["mjpeg"], tags: [:]),
        ])
        let catalog = AlbumCatalog(album: Album(path: album.path), manifest: manifest, describer: headers)
        let items = try catalog.items()
        #expect(items.map(\.name) == ["new.mp4", "2026/11/nested.mkv", "tagged.mov", "old.mp4", "broken.mp4", "photo.JPG"])
        #expect(items.map(\.madeByVidrec) == [true, false, true, false, false, false], "in the manifest, or carrying vidrec's tags")
        #expect(items.map(\.kind) == [.video, .video, .video, .video, .video, .photo])
        #expect(items.first { $0.name == "broken.mp4" }?.unreadable != nil)
        #expect(items.first { $0.name == "new.mp4" }?.thumbnail == album.path + "/.thumbnails/new.mp4.jpg")
        #expect(items.first { $0.name == "photo.JPG" }?.resolution == "4000x3000")

        #expect(try catalog.item(named: "old").name == "old.mp4")
        #expect(try catalog.item(named: "2026/11/nested.mkv").name == "2026/11/nested.mkv")
        #expect(throws: StoreError.self) { try catalog.item(named: "odl") }
        do {
            _ = try catalog.item(named: "odl")
        } catch {
            #expect("\(error)" == "nothing called 'odl' in the album \(album.path); did you mean 'old'?")
        }
    }

    @Test func anAlbumThatDoesNotExistIsEmptyAndOneThatIsAFileIsAnError() throws {
        let state = try TemporaryDirectory()
        let manifest = AlbumManifest(stateDirectory: state.path)
        let headers = ScriptedHeaders(headers: [:])
        #expect(try AlbumCatalog(album: Album(path: state.path + "/none"), manifest: manifest, describer: headers).items().isEmpty)
        let file = try state.write("file", "x")
        #expect(throws: StoreError.self) { try AlbumCatalog(album: Album(path: file), manifest: manifest, describer: headers).items() }
    }
}
