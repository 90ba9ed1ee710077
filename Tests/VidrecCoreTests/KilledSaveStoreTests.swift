import Foundation
import Glibc
import Testing
@testable import VidrecCore
import VidrecSystem

/// A save across file systems killed after its copy took its name in the album and
/// before the pending file went: the next look at the pending area finishes it, so the
/// recording is the album's alone and a later save cannot make a second copy.
@Suite struct KilledSaveStoreTests {
    let state: TemporaryDirectory
    let store: RecordingStore
    let bytes = Data((0..<50_000).map { UInt8($0 % 241) })

    init() throws {
        state = try TemporaryDirectory()
        store = try RecordingStore(stateDirectory: state.path)
    }

    @Test func theNextListingFinishesASaveKilledWithTheRecordingInBothPlaces() throws {
        let album = try TemporaryDirectory(under: "/dev/shm")
        let entry = try store.makeFinishedRecording(holding: bytes, at: Date())
        // The killed save's state: the synced copy under its album name, noted, and the
        // pending recording still whole.
        let copy = album.path + "/door.mp4"
        try bytes.write(to: URL(fileURLWithPath: copy))
        var info = stat()
        try #require(stat(copy, &info) == 0)
        try store.noteSave(of: entry, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), album: album.path)
        #expect(store.list().isEmpty, "the recording is the album's")
        #expect(!FileManager.default.fileExists(atPath: entry.mediaPath))
        #expect(FileManager.default.contents(atPath: copy) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).filter { $0.hasPrefix(entry.id) }.isEmpty,
                "no sidecar or note left")
    }

    @Test func aNoteWhoseCopyHasNoNameYetLeavesTheRecordingPendingUntilTheCopyHasOne() throws {
        let album = try TemporaryDirectory(under: "/dev/shm")
        let entry = try store.makeFinishedRecording(holding: bytes, at: Date())
        // A save under way in another process (or killed there): the copy is still
        // hidden, under another name (and another file of the album, not the copy, has
        // a name). A listing now leaves the recording pending and the note in place.
        let hidden = album.path + "/.vidrec-door-1.partial"
        try bytes.write(to: URL(fileURLWithPath: hidden))
        try Data("other".utf8).write(to: URL(fileURLWithPath: album.path + "/other.mp4"))
        var info = stat()
        try #require(stat(hidden, &info) == 0)
        try store.noteSave(of: entry, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), album: album.path)
        let note = store.directory + "/" + entry.id + ".saving"
        #expect(store.list().map(\.id) == [entry.id])
        #expect(FileManager.default.contents(atPath: entry.mediaPath) == bytes)
        #expect(FileManager.default.fileExists(atPath: note), "the note is kept while the copy has no name")
        // The copy takes its name, and the saving process is killed before removing the
        // pending file: the next listing finishes the save.
        try FileManager.default.moveItem(atPath: hidden, toPath: album.path + "/door.mp4")
        #expect(store.list().isEmpty, "the recording is the album's")
        #expect(!FileManager.default.fileExists(atPath: entry.mediaPath) && !FileManager.default.fileExists(atPath: note))
    }

    @Test func discardingARecordingRemovesItsNote() throws {
        let album = try TemporaryDirectory(under: "/dev/shm")
        let entry = try store.makeFinishedRecording(holding: bytes, at: Date())
        try store.noteSave(of: entry, device: 1, inode: 2, album: album.path)
        try store.discard(try #require(store.list().first))
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).isEmpty, "nothing left pending")
    }

    @Test func aSaveAcrossFileSystemsLeavesNoNote() throws {
        let album = try TemporaryDirectory(under: "/dev/shm")
        let entry = try store.makeFinishedRecording(holding: bytes, at: Date())
        let saved = try store.commit(entry, to: Album(path: album.path), name: "far", finalizer: NoFinalizingExpected())
        #expect(FileManager.default.contents(atPath: saved) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).isEmpty, "nothing left pending")
    }
}
