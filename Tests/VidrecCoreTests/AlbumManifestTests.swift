import Dispatch
import Foundation
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

    @Test func pruningByAgeRemovesWhatWasSavedLongerAgoButNeverTheNewest() throws {
        let state = try TemporaryDirectory(), album = try TemporaryDirectory()
        let files = try (0..<3).map { try album.write("clip\($0).mp4", "v") }
        // Saved 10 days, 2 days and 1 hour ago, as the manifest keeps it.
        let now = Date().timeIntervalSince1970
        let items = zip(files, [now - 10 * 86_400, now - 2 * 86_400, now - 3_600]).map { file, saved in
            ["name": (file as NSString).lastPathComponent, "saved": saved] as [String: Any]
        }
        let folder = URL(fileURLWithPath: album.path).standardizedFileURL.path
        _ = try state.write("albums.json", String(decoding: try JSONSerialization.data(withJSONObject: [folder: items]), as: UTF8.self))
        let manifest = AlbumManifest(stateDirectory: state.path)
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
