import Foundation
import Glibc
import Testing
import VidrecCore
import VidrecMedia
import VidrecSystem

/// A finalizer for recordings that are already final: being called is a test failure.
struct NoFinalizingExpected: MovieFinalizing {
    func indexes(_ container: Container) -> Bool { true }
    func finalize(_ path: String, trimToCommonEnd: Bool) throws -> Double {
        Issue.record("finalize was called for \(path)")
        throw SystemError("finalize", path, errno: EINVAL)
    }
}

@Suite struct RecordingStoreTests {
    let state: TemporaryDirectory
    let store: RecordingStore
    let bytes = Data((0..<100_000).map { UInt8($0 % 251) })

    init() throws {
        state = try TemporaryDirectory()
        store = try RecordingStore(stateDirectory: state.path)
    }

    /// Makes a finished pending recording holding `bytes`.
    func finishedRecording(at date: Date = Date()) throws -> RecordingStore.Entry {
        try store.makeFinishedRecording(holding: bytes, at: date)
    }

    @Test func thePendingAreaIsPrivateToTheUser() throws {
        var info = stat()
        #expect(stat(store.directory, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700)
    }

    @Test func aDamagedSidecarNeverHidesItsRecording() throws {
        let entry = try finishedRecording()
        let sidecar = store.directory + "/" + entry.id + ".json"
        try Data("{ \"id\": ".utf8).write(to: URL(fileURLWithPath: sidecar))
        let listed = store.list()
        try #require(listed.count == 1, "the recording is still listed")
        #expect(listed[0].id == entry.id && listed[0].state == .finished && listed[0].sidecar.rebuilt == true)
        #expect(listed[0].sidecar.endReason?.hasPrefix("its sidecar could not be used") == true)
        #expect(FileManager.default.contents(atPath: sidecar + ".damaged") == Data("{ \"id\": ".utf8), "the damaged one is kept")
        // And it saves, whole.
        let album = try TemporaryDirectory()
        let saved = try store.commit(listed[0], to: Album(path: album.path), name: "kept", finalizer: NoFinalizingExpected())
        #expect(FileManager.default.contents(atPath: saved) == bytes)
    }

    @Test func aSidecarThatIsAFIFOOrNamesAnotherRecordingIsNotWaitedOnOrTrusted() throws {
        let first = try finishedRecording(at: Date(timeIntervalSince1970: 1_000_000))
        let second = try finishedRecording(at: Date(timeIntervalSince1970: 2_000_000))
        let firstSidecar = store.directory + "/" + first.id + ".json"
        unlink(firstSidecar)
        #expect(mkfifo(firstSidecar, 0o600) == 0)
        // The second's sidecar copied over: it names the other recording.
        let secondSidecar = store.directory + "/" + second.id + ".json"
        let text = try String(contentsOfFile: secondSidecar, encoding: .utf8).replacingOccurrences(of: second.id, with: "../../" + second.id)
        try text.write(toFile: secondSidecar, atomically: true, encoding: .utf8)
        let listed = store.list()
        #expect(listed.map(\.id) == [first.id, second.id])
        #expect(listed.allSatisfy { $0.sidecar.rebuilt == true && $0.mediaPath.hasPrefix(store.directory + "/") })
    }

    @Test func aRecordingWhoseSidecarIsGoneIsListedAgain() throws {
        let entry = try finishedRecording()
        unlink(store.directory + "/" + entry.id + ".json")
        let listed = store.list()
        #expect(listed.map(\.id) == [entry.id])
        #expect(listed.first?.sidecar.endReason == "its sidecar could not be used (it is missing) and was made again from the file")
    }

    @Test func commitMovesTheRecordingIntoTheAlbumAndEmptiesPending() throws {
        let entry = try finishedRecording()
        let album = try TemporaryDirectory()
        let saved = try store.commit(entry, to: Album(path: album.path + "/vidrec"), name: nil, finalizer: NoFinalizingExpected())
        #expect(saved == album.path + "/vidrec/vidrec-\(entry.id).mp4")
        #expect(FileManager.default.contents(atPath: saved) == bytes)
        #expect(store.list().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: entry.mediaPath))
    }

    @Test func takenNamesGetANumberAndNothingIsOverwritten() throws {
        let album = try TemporaryDirectory()
        let existing = try album.write("clip.mp4", "an older clip")
        var saved: [String] = []
        for second in 0..<3 {
            let entry = try finishedRecording(at: Date(timeIntervalSince1970: 1_000_000 + Double(second)))
            saved.append(try store.commit(entry, to: Album(path: album.path), name: "clip", finalizer: NoFinalizingExpected()))
        }
        #expect(saved.map { ($0 as NSString).lastPathComponent } == ["clip (2).mp4", "clip (3).mp4", "clip (4).mp4"])
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "an older clip")
    }

    @Test func commitAcrossFileSystemsCopiesSyncsAndRenames() throws {
        let album = try TemporaryDirectory(under: "/dev/shm")
        var a = stat(), b = stat()
        stat(album.path, &a)
        stat(store.directory, &b)
        try #require(a.st_dev != b.st_dev, "/dev/shm must be another file system than \(store.directory)")
        let entry = try finishedRecording()
        chmod(entry.mediaPath, 0o600)  // as vidrec writes its recordings
        let saved = try store.commit(entry, to: Album(path: album.path), name: "far", finalizer: NoFinalizingExpected())
        #expect(FileManager.default.contents(atPath: saved) == bytes)
        var copied = stat()
        #expect(stat(saved, &copied) == 0 && copied.st_mode & 0o777 == 0o600, "the copy keeps the mode a rename keeps")
        #expect(try FileManager.default.contentsOfDirectory(atPath: album.path) == ["far.mp4"], "no temporary file left")
        #expect(!FileManager.default.fileExists(atPath: entry.mediaPath))
    }

    @Test func aMissingAlbumIsCreated() throws {
        let root = try TemporaryDirectory()
        let entry = try finishedRecording()
        let saved = try store.commit(entry, to: Album(path: root.path + "/a/b/c"), name: nil, finalizer: NoFinalizingExpected())
        #expect(saved.hasPrefix(root.path + "/a/b/c/"))
    }

    @Test func anAlbumThatIsAFileIsRefusedAndTheRecordingStaysPending() throws {
        let root = try TemporaryDirectory()
        let file = try root.write("album", "not a folder")
        let entry = try finishedRecording()
        #expect {
            try store.commit(entry, to: Album(path: file), name: nil, finalizer: NoFinalizingExpected())
        } throws: { "\($0)" == "album \(file) is not a folder; remove it or choose another album with --album DIR" }
        #expect(store.list().map(\.id) == [entry.id])
        #expect(FileManager.default.contents(atPath: entry.mediaPath) == bytes)
    }

    @Test func anUnwritableAlbumIsRefusedAndTheRecordingStaysPending() throws {
        let root = try TemporaryDirectory()
        let album = root.path + "/readonly"
        try FileManager.default.createDirectory(atPath: album, withIntermediateDirectories: true)
        let readOnly = try ReadOnlyFolder(album)
        let entry = try finishedRecording()
        #expect {
            try store.commit(entry, to: Album(path: album), name: nil, finalizer: NoFinalizingExpected())
        } throws: { "\($0)".hasPrefix("cannot write to \(album): ") }
        withExtendedLifetime(readOnly) {}
        #expect(store.list().map(\.id) == [entry.id])
    }

    @Test func aRecordingThatIsStillBeingWrittenCannotBeSavedOrDiscarded() throws {
        let (entry, lock) = try store.create(at: Date()) { id in
            RecordingSidecar(id: id, preset: "low", presetFile: "", camera: "test pattern", microphone: nil,
                             container: .mp4, startTime: Date(), pid: getpid(), maxDuration: nil)
        }
        #expect(entry.state == .recording)
        #expect(throws: StoreError.self) { try store.discard(entry) }
        #expect(throws: StoreError.self) { try store.commit(entry, to: Album(path: state.path + "/album"), name: nil, finalizer: NoFinalizingExpected()) }
        #expect(throws: StoreError.self) { try store.newestSavable(command: "save") }
        withExtendedLifetime(lock) {}
    }

    @Test func aRecordingWhoseProcessDiedReadsAsInterrupted() throws {
        var entry: RecordingStore.Entry
        do {
            let (created, lock) = try store.create(at: Date()) { id in
                RecordingSidecar(id: id, preset: "low", presetFile: "", camera: "test pattern", microphone: nil,
                                 container: .mp4, startTime: Date(), pid: 999_999, maxDuration: nil)
            }
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: created.partialPath))
            entry = created
            withExtendedLifetime(lock) {}
        }
        // The lock is released, as the kernel does when a process dies.
        entry = try store.entry(id: entry.id)
        #expect(entry.sidecar.state == .recording)
        #expect(entry.state == .interrupted)
        #expect(store.running().isEmpty)
    }

    /// A process with a segment and an event file open is one running recording: the
    /// entry that reports progress, whichever is newer; without progress, the newest.
    @Test func aProcessWithSeveralFilesOpenIsOneRunningRecordingTheOneReportingProgress() throws {
        func open(_ seconds: Double) throws -> (RecordingStore.Entry, RecordingLock) {
            try store.create(at: Date(timeIntervalSince1970: seconds)) { id in
                RecordingSidecar(id: id, preset: "low", presetFile: "", camera: "test pattern", microphone: nil,
                                 container: .mp4, startTime: Date(), pid: getpid(), maxDuration: nil)
            }
        }
        let (segment, segmentLock) = try open(2_000_000), (event, eventLock) = try open(2_000_005)
        #expect(store.running().count == 2)
        #expect(store.runningRecordings().map(\.id) == [event.id], "without progress, the newest")
        store.writeProgress(SessionProgress(elapsed: 12, videoFrames: 180, framesPerSecond: 15, bytes: 1000, droppedFrames: 0), id: segment.id)
        #expect(store.runningRecordings().map(\.id) == [segment.id], "the one reporting progress")
        store.endProgress(id: segment.id)
        withExtendedLifetime((segmentLock, eventLock)) {}
    }

    @Test func recordingsStartedInTheSameSecondGetDistinctIDs() throws {
        let date = Date(timeIntervalSince1970: 2_000_000)
        let first = try finishedRecording(at: date), second = try finishedRecording(at: date)
        #expect(first.id != second.id)
        #expect(second.id == first.id + "-2")
    }

    @Test func discardRemovesTheFilesAndTheSidecar() throws {
        let entry = try finishedRecording()
        try store.discard(entry)
        #expect(store.list().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).isEmpty)
    }

    @Test func namesThatEscapeTheAlbumOrHideAreRefusedAndFoldersAreMadeInside() throws {
        let entry = try finishedRecording()
        for name in ["../escape", ".hidden", "a/../b", "a//b", "a/.b", "/abs", "a/"] {
            #expect(throws: StoreError.self, "\(name)") {
                try store.commit(entry, to: Album(path: state.path + "/album"), name: name, finalizer: NoFinalizingExpected())
            }
        }
        let saved = try store.commit(entry, to: Album(path: state.path + "/album"), name: "2026/11/30/door", finalizer: NoFinalizingExpected())
        #expect(saved == state.path + "/album/2026/11/30/door.mp4")
    }
}

/// Makes a folder unwritable for this process: a read-only tmpfs mounted over it when
/// running as root (root ignores permission bits), mode 0555 otherwise.
final class ReadOnlyFolder {
    let path: String
    let mounted: Bool

    init(_ path: String) throws {
        self.path = path
        if geteuid() == 0 {
            let mount = Process()
            mount.executableURL = URL(fileURLWithPath: "/bin/mount")
            mount.arguments = ["-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", path]
            try mount.run()
            mount.waitUntilExit()
            try #require(mount.terminationStatus == 0, "mount a read-only tmpfs on \(path)")
            mounted = true
        } else {
            chmod(path, 0o555)
            mounted = false
        }
    }

    deinit {
        if mounted {
            let umount = Process()
            umount.executableURL = URL(fileURLWithPath: "/bin/umount")
            umount.arguments = [path]
            try? umount.run()
            umount.waitUntilExit()
        } else {
            chmod(path, 0o755)
        }
    }
}
