import Foundation
import Glibc
import Testing
import VidrecCore
import VidrecMedia
import VidrecSystem

/// Every file operation goes through the one syscall seam, so a full disk or a failing
/// one is tested on the host for each of them: what was there stays whole, nothing half
/// written is left behind, and the error names the operation, the file and the errno.
@Suite struct InjectedFaultTests {
    let bytes = Data((0..<200_000).map { UInt8($0 % 241) })

    func recording(in store: RecordingStore) throws -> RecordingStore.Entry {
        try store.makeFinishedRecording(holding: bytes)
    }

    @Test(arguments: [(Syscall.write, ENOSPC), (.fsync, EIO), (.rename, EIO), (.create, EROFS)])
    func aSidecarThatCannotBeReplacedStaysAsItWasWithNoScratchFileLeft(operation: Syscall, code: Int32) throws {
        let state = try TemporaryDirectory()
        let store = try RecordingStore(stateDirectory: state.path)
        let entry = try recording(in: store)
        var changed = entry.sidecar
        changed.endReason = "changed"
        let error = try #require(throws: SystemError.self) {
            try SyscallFaults.injecting([operation: code]) { try store.write(changed) }
        }
        #expect(error.errno == code && error.operation == operation.rawValue)
        #expect("\(error)".contains(entry.id), "the error names the file: \(error)")
        #expect(try store.entry(id: entry.id).sidecar == entry.sidecar)
        let scratch = try FileManager.default.contentsOfDirectory(atPath: store.directory).filter { $0.hasSuffix(".tmp") }
        #expect(scratch.isEmpty)
    }

    @Test(arguments: [(Syscall.write, ENOSPC), (.read, EIO), (.fsync, EIO)])
    func aSaveToAnotherFileSystemThatFailsMidCopyKeepsTheRecordingPendingAndTheAlbumClean(operation: Syscall, code: Int32) throws {
        let state = try TemporaryDirectory()
        let album = try TemporaryDirectory()
        let store = try RecordingStore(stateDirectory: state.path)
        let entry = try recording(in: store)
        // EXDEV sends the save down its copy path, as for an album on another disk.
        #expect(throws: SystemError.self) {
            try SyscallFaults.injecting([.renameat2: EXDEV, operation: code]) {
                _ = try store.commit(entry, to: Album(path: album.path), name: nil, finalizer: NoFinalizingExpected())
            }
        }
        #expect(FileManager.default.contents(atPath: entry.mediaPath) == bytes)
        #expect(try store.entry(id: entry.id).state == .finished)
        #expect(try FileManager.default.contentsOfDirectory(atPath: album.path).isEmpty, "no partial copy is left")
    }

    @Test func aRecordingThatCannotBeDiscardedSaysWhyAndStaysPending() throws {
        let state = try TemporaryDirectory()
        let store = try RecordingStore(stateDirectory: state.path)
        let entry = try recording(in: store)
        let error = try #require(throws: SystemError.self) {
            try SyscallFaults.injecting([.unlink: EROFS]) { try store.discard(entry) }
        }
        #expect(error.errno == EROFS && error.subject == entry.mediaPath)
        #expect(FileManager.default.contents(atPath: entry.mediaPath) == bytes)
        #expect(try store.entry(id: entry.id).state == .finished)
    }
}
