import Foundation
import Testing
import VidrecCore

@Suite struct AlbumManifestTests {
    @Test func pruningRemovesOnlyTheOldestFilesVidrecSaved() throws {
        let state = try TemporaryDirectory(), album = try TemporaryDirectory()
        let manifest = AlbumManifest(stateDirectory: state.path)
        let foreign = try album.write("holiday.mp4", String(repeating: "x", count: 500))
        var files: [String] = []
        for index in 0..<4 {
            let file = try album.write("clip\(index).mp4", String(repeating: "v", count: 100))
            try manifest.recordSave(file)
            files.append(file)
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(try manifest.prune(album: album.path, keep: 3, maxBytes: nil) == [files[0]])
        // 100 bytes each: 250 bytes leave room for the newest two.
        #expect(try manifest.prune(album: album.path, keep: nil, maxBytes: 250) == [files[1]])
        #expect(FileManager.default.fileExists(atPath: foreign))
        #expect(try manifest.prune(album: album.path, keep: 1, maxBytes: 1) == [files[2]], "the newest always stays")
        #expect(FileManager.default.fileExists(atPath: files[3]))
    }
}
