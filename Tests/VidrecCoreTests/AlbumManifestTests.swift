import Dispatch
import Foundation
import Glibc
import Testing
import VidrecCore

@Suite struct AlbumManifestTests {
    @Test func pruningRemovesOnlyTheOldestFilesVidrecSaved() throws {
        let state = try TemporaryDirectory(), album = try TemporaryDirectory()
        let manifest = AlbumManifest(stateDirectory: state.path)
        let foreign = try album.write("holiday.mp4", String(repeating: "x", count: 500))
        var files: [String] = []
        // Saved within the same clock tick or not, the order of saving decides.
        for index in 0..<4 {
            let file = try album.write("clip\(index).mp4", String(repeating: "v", count: 100))
            try manifest.recordSave(file)
            files.append(file)
        }
        #expect(try manifest.prune(album: album.path, keep: 3, maxBytes: nil) == [files[0]])
        // 100 bytes each: 250 bytes leave room for the newest two.
        #expect(try manifest.prune(album: album.path, keep: nil, maxBytes: 250) == [files[1]])
        #expect(FileManager.default.fileExists(atPath: foreign))
        #expect(try manifest.prune(album: album.path, keep: 1, maxBytes: 1) == [files[2]], "the newest always stays")
        #expect(FileManager.default.fileExists(atPath: files[3]))
    }

    @Test func moviesAndPhotosInOneFolderAreCountedApart() throws {
        let state = try TemporaryDirectory(), album = try TemporaryDirectory()
        let manifest = AlbumManifest(stateDirectory: state.path)
        // Saved in turn: a movie, a photo, a movie, a photo, a photo.
        var files: [String] = []
        for (index, name) in ["a.mp4", "a.jpg", "b.mkv", "b.JPG", "c.jpg"].enumerated() {
            let file = try album.write(name, String(repeating: "v", count: 100 + index))
            try manifest.recordSave(file)
            files.append(file)
        }
        // The newest movie stays, whatever photos came after it; photos are not counted.
        #expect(try manifest.prune(album: album.path, keep: 1, maxBytes: nil) == [files[0]])
        #expect(try manifest.prune(album: album.path, keep: 1, maxBytes: 150, photos: true) == [files[3], files[1]])
        let left = try FileManager.default.contentsOfDirectory(atPath: album.path).sorted()
        #expect(left == ["b.mkv", "c.jpg"], "\(left)")
    }

    @Test func pruningByAgeRemovesWhatWasSavedLongerAgoButNeverTheNewest() throws {
        let state = try TemporaryDirectory(), album = try TemporaryDirectory()
        let files = try (0..<3).map { try album.write("clip\($0).mp4", "v") }
        let manifest = AlbumManifest(stateDirectory: state.path)
        for file in files { try manifest.recordSave(file) }
        // Saved 10 days, 2 days and 1 hour ago, as the manifest keeps it.
        let now = Date().timeIntervalSince1970
        let folder = URL(fileURLWithPath: album.path).standardizedFileURL.path
        var albums = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest.path))) as? [String: [[String: Any]]])
        for (index, saved) in [now - 10 * 86_400, now - 2 * 86_400, now - 3_600].enumerated() { albums[folder]![index]["saved"] = saved }
        _ = try state.write("albums.json", String(decoding: try JSONSerialization.data(withJSONObject: albums), as: UTF8.self))
        #expect(try manifest.prune(album: album.path, keep: nil, maxBytes: nil, maxAge: 7 * 86_400) == [files[0]])
        #expect(try manifest.prune(album: album.path, keep: nil, maxBytes: nil, maxAge: 60) == [files[1]], "the newest always stays")
        #expect(FileManager.default.fileExists(atPath: files[2]))
    }

    @Test func makingRoomRemovesTheOldestSavedFileButNeverTheNewestOrAnotherFile() throws {
        let state = try TemporaryDirectory(), album = try TemporaryDirectory()
        let manifest = AlbumManifest(stateDirectory: state.path)
        let foreign = try album.write("holiday.mp4", "x")
        let files = try (0..<3).map { try album.write("segment\($0).mp4", "v") }
        for file in files { try manifest.recordSave(file) }
        #expect(try manifest.removeOldest(album: album.path) == files[0])
        #expect(try manifest.removeOldest(album: album.path) == files[1])
        #expect(try manifest.removeOldest(album: album.path) == nil)
        #expect(FileManager.default.fileExists(atPath: files[2]) && FileManager.default.fileExists(atPath: foreign))
        #expect(try manifest.savedFiles(album: album.path) == ["segment2.mp4"])
    }

    @Test func aFileTheUserPutUnderASavedNameOrChangedIsNeverRemoved() throws {
        let state = try TemporaryDirectory(), album = try TemporaryDirectory()
        let manifest = AlbumManifest(stateDirectory: state.path)
        let files = try (0..<4).map { try album.write("clip\($0).mp4", String(repeating: "v", count: 100)) }
        for file in files { try manifest.recordSave(file) }
        // clip0: replaced by the user's own file of the same name and size; clip1: edited.
        unlink(files[0])
        _ = try album.write("clip0.mp4", String(repeating: "u", count: 100))
        let handle = try #require(FileHandle(forWritingAtPath: files[1]))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("more".utf8))
        try handle.close()
        #expect(try manifest.prune(album: album.path, keep: 1, maxBytes: nil) == [files[2]])
        #expect(FileManager.default.fileExists(atPath: files[0]) && FileManager.default.fileExists(atPath: files[1]))
        // Neither is vidrec's any more.
        #expect(try manifest.savedFiles(album: album.path) == ["clip3.mp4"])
        #expect(try manifest.removeOldest(album: album.path) == nil)
    }

    @Test func namesInADamagedManifestThatLeaveTheAlbumAreNeverFollowed() throws {
        let state = try TemporaryDirectory(), root = try TemporaryDirectory()
        let outside = try root.write("outside/victim.mp4", "v")
        let album = root.path + "/album"
        let file = try root.write("album/clip.mp4", "v")
        let manifest = AlbumManifest(stateDirectory: state.path)
        try manifest.recordSave(file)
        // The victim's own identity, under a name that climbs out of the album.
        var info = stat()
        stat(outside, &info)
        let folder = URL(fileURLWithPath: album).standardizedFileURL.path
        let evil: [String: Any] = ["name": "../outside/victim.mp4", "saved": 0, "device": UInt64(info.st_dev), "inode": UInt64(info.st_ino),
                                   "size": Int64(info.st_size), "modified": Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)]
        var albums = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifest.path))) as? [String: [[String: Any]]])
        albums[folder]!.insert(evil, at: 0)
        _ = try state.write("albums.json", String(decoding: try JSONSerialization.data(withJSONObject: albums), as: UTF8.self))
        #expect(try manifest.prune(album: album, keep: 1, maxBytes: nil).isEmpty)
        #expect(try manifest.removeOldest(album: album) == nil)
        #expect(FileManager.default.fileExists(atPath: outside))
        #expect(try manifest.savedFiles(album: album) == ["clip.mp4"])
    }

    @Test func twentySavesAtOnceAreAllRemembered() throws {
        let state = try TemporaryDirectory(), album = try TemporaryDirectory()
        let files = try (0..<20).map { try album.write("clip\($0).mp4", "v") }
        let failures = AtomicCounter()
        let statePath = state.path
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            // Each save opens the manifest on its own, as separate processes would.
            do { try AlbumManifest(stateDirectory: statePath).recordSave(files[index]) } catch { failures.increment() }
        }
        #expect(failures.value == 0)
        let saved = try AlbumManifest(stateDirectory: state.path).savedFiles(album: album.path)
        #expect(Set(saved) == Set(files.map { ($0 as NSString).lastPathComponent }), "\(saved.count) of 20 remembered")
    }

    @Test func aDamagedManifestIsMovedAsideNotSilentlyEmptied() throws {
        let state = try TemporaryDirectory(), album = try TemporaryDirectory()
        let damaged = try state.write("albums.json", "{ not json")
        let file = try album.write("clip.mp4", "v")
        try AlbumManifest(stateDirectory: state.path).recordSave(file)
        #expect(try String(contentsOfFile: damaged + ".damaged", encoding: .utf8) == "{ not json")
        #expect(try AlbumManifest(stateDirectory: state.path).savedFiles(album: album.path) == ["clip.mp4"])
    }
}

/// A counter shared by the threads of `concurrentPerform`.
final class AtomicCounter: @unchecked Sendable {
    // Guarded by `lock`; that is why this is @unchecked Sendable.
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
