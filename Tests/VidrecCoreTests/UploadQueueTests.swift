import Foundation
import Glibc
import Synchronization
import Testing
import VidrecCore

/// The upload queue's rules with a transfer that copies into a folder and fails on
/// command: the queue itself (files, locks, back-off, move) is the real one.
@Suite struct UploadQueueTests {
    /// Copies files into a folder (`dest:NAME` → `folder/NAME`); fails while `failing` is set.
    final class FolderTransfer: Uploading {
        let folder: String
        let failing = Atomic<Int>(0)
        let copies = Atomic<Int>(0)
        init(folder: String) { self.folder = folder }
        func target(_ destination: String) -> String { folder + "/" + destination.dropFirst("dest:".count) }
        func copy(_ file: String, to destination: String) throws {
            copies.add(1, ordering: .sequentiallyConsistent)
            if failing.load(ordering: .sequentiallyConsistent) > 0 {
                failing.subtract(1, ordering: .sequentiallyConsistent)
                throw UploadError("copy", destination, "connection refused")
            }
            let target = target(destination)
            try FileManager.default.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(atPath: target)
            try FileManager.default.copyItem(atPath: file, toPath: target)
        }
        func verify(_ file: String, against destination: String) throws -> String {
            guard FileManager.default.contentsEqual(atPath: file, andPath: target(destination)) else {
                throw UploadError("verify", destination, "differs")
            }
            return "bytes"
        }
    }

    @Test func aJobIsNamedAfterTheAlbumPathAndKeptUntilItsCopyIsVerified() throws {
        let state = try TemporaryDirectory(), album = try TemporaryDirectory(), remote = try TemporaryDirectory()
        let file = try album.write("2026/11/30/door.mp4", "movie")
        let queue = UploadQueue(stateDirectory: state.path)
        let job = try queue.enqueue(file: file, remote: "dest:cam", album: album.path, move: false)
        #expect(job.destination == "dest:cam/2026/11/30/door.mp4")
        #expect(UploadQueue.destination("dest:", name: "a.mp4") == "dest:a.mp4")
        #expect(queue.jobs() == [job])

        let transfer = FolderTransfer(folder: remote.path)
        transfer.failing.store(1, ordering: .sequentiallyConsistent)
        let events = Mutex<[String]>([])
        let worker = UploadWorker(queue: queue, transfer: transfer, manifest: nil) { event in
            switch event {
            case .uploading: events.withLock { $0.append("uploading") }
            case .uploaded: events.withLock { $0.append("uploaded") }
            case let .failed(_, _, retryIn): events.withLock { $0.append("failed \(retryIn.map { "\($0)" } ?? "-")") }
            case .dropped: events.withLock { $0.append("dropped") }
            }
        }
        let left = worker.finish(attempts: 3)
        #expect(left.isEmpty)
        // Failed once, tried again 2 s later, verified, removed from the queue; the file stays.
        #expect(events.withLock { $0 } == ["uploading", "failed 2.0", "uploading", "uploaded"])
        #expect(FileManager.default.contentsEqual(atPath: file, andPath: remote.path + "/cam/2026/11/30/door.mp4"))
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(queue.jobs().isEmpty)
    }

    @Test func aJobThatKeepsFailingStaysQueuedWithItsErrorAndBackOff() throws {
        let state = try TemporaryDirectory(), album = try TemporaryDirectory(), remote = try TemporaryDirectory()
        let file = try album.write("door.mp4", "movie")
        let queue = UploadQueue(stateDirectory: state.path)
        try queue.enqueue(file: file, remote: "dest:", album: album.path, move: true)
        let transfer = FolderTransfer(folder: remote.path)
        transfer.failing.store(100, ordering: .sequentiallyConsistent)
        let worker = UploadWorker(queue: queue, transfer: transfer, manifest: nil) { _ in }
        let left = worker.finish(attempts: 2)
        try #require(left.count == 1)
        #expect(left[0].attempts == 2)
        #expect(left[0].lastError == "copy to dest:door.mp4: connection refused")
        #expect(left[0].nextAttempt > Date().addingTimeInterval(2))
        #expect(transfer.copies.load(ordering: .sequentiallyConsistent) == 2)
        // Not moved: nothing is removed before a verified copy.
        #expect(FileManager.default.fileExists(atPath: file))
        #expect(UploadJob.retryDelay(afterFailures: 1) == 2)
        #expect(UploadJob.retryDelay(afterFailures: 4) == 16)
        #expect(UploadJob.retryDelay(afterFailures: 30) == 300)

        // Another process (here, a lock held) is uploading it: this worker leaves it.
        let lock = try #require(try queue.claim(left[0]))
        transfer.failing.store(0, ordering: .sequentiallyConsistent)
        let other = UploadWorker(queue: queue, transfer: transfer, manifest: nil) { _ in }
        #expect(other.finish(attempts: 1).count == 1)
        #expect(transfer.copies.load(ordering: .sequentiallyConsistent) == 2)
        withExtendedLifetime(lock) {}
    }

    @Test func aMovedFileIsRemovedOnlyAfterVerificationAndForgottenByTheAlbum() throws {
        let state = try TemporaryDirectory(), album = try TemporaryDirectory(), remote = try TemporaryDirectory()
        let file = try album.write("door.mp4", "movie")
        let thumbnail = try album.write(".thumbnails/door.mp4.jpg", "jpeg")
        let manifest = AlbumManifest(stateDirectory: state.path)
        try manifest.recordSave(file, album: album.path)
        let queue = UploadQueue(stateDirectory: state.path)
        try queue.enqueue(file: file, remote: "dest:", album: album.path, move: true)
        let gone = try album.write("gone.mp4", "x")
        try queue.enqueue(file: gone, remote: "dest:", album: album.path, move: false)
        try FileManager.default.removeItem(atPath: gone)
        let worker = UploadWorker(queue: queue, transfer: FolderTransfer(folder: remote.path), manifest: manifest) { _ in }
        #expect(worker.finish().isEmpty)
        #expect(FileManager.default.contents(atPath: remote.path + "/door.mp4") == Data("movie".utf8))
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(!FileManager.default.fileExists(atPath: thumbnail))
        #expect(try manifest.savedFiles(album: album.path).isEmpty)
        // The job whose file was deleted by hand is dropped, not retried for ever.
        #expect(!FileManager.default.fileExists(atPath: remote.path + "/gone.mp4"))
    }

    @Test func aJobFileWhoseIDDoesNotMatchItsNameIsSetAsideNotTriedForever() throws {
        let state = try TemporaryDirectory(), album = try TemporaryDirectory()
        let file = try album.write("door.mp4", "movie")
        let queue = UploadQueue(stateDirectory: state.path)
        let job = try queue.enqueue(file: file, remote: "dest:", album: album.path, move: false)
        let copied = queue.directory + "/20261201-000000-deadbeef.json"
        try FileManager.default.moveItem(atPath: queue.directory + "/" + job.id + ".json", toPath: copied)
        #expect(queue.jobs().isEmpty)
        #expect(queue.damaged() == [copied + ".damaged"])
        // Nothing is left to try: the worker ends at once instead of spinning on it.
        let worker = UploadWorker(queue: queue, transfer: FolderTransfer(folder: state.path), manifest: nil) { _ in }
        #expect(worker.finish(attempts: 3).isEmpty)
        #expect(FileManager.default.fileExists(atPath: file))
    }

    @Test func aMoveWhoseDestinationIsTheFileItselfKeepsTheFile() throws {
        /// rclone copying a local file onto itself: nothing to do, and the "copy" verifies.
        final class Itself: Uploading {
            func copy(_ file: String, to destination: String) throws {}
            func verify(_ file: String, against destination: String) throws -> String { "md5 same" }
        }
        let state = try TemporaryDirectory(), album = try TemporaryDirectory()
        let file = try album.write("door.mp4", "movie")
        let queue = UploadQueue(stateDirectory: state.path)
        try queue.enqueue(file: file, remote: ":local:" + album.path, album: album.path, move: true)
        let proofs = Mutex<[String]>([])
        let worker = UploadWorker(queue: queue, transfer: Itself(), manifest: nil) { event in
            if case let .uploaded(job, proof) = event { proofs.withLock { $0.append("\(job.move) \(proof)") } }
        }
        #expect(worker.finish().isEmpty)
        #expect(FileManager.default.fileExists(atPath: file), "the only copy stays")
        #expect(proofs.withLock { $0 } == ["false md5 same; the destination is this very file, so it is kept"])
    }

    @Test func destinationsAreShownWithoutTheirSecrets() throws {
        let state = try TemporaryDirectory()
        let job = try UploadQueue(stateDirectory: state.path).enqueue(file: "/a/door.mp4", remote: ":s3,provider=AWS,secret_access_key=HUSH:bucket",
                                                                   album: nil, move: false)
        #expect(job.destination == ":s3,provider=AWS,secret_access_key=HUSH:bucket/door.mp4", "rclone needs it whole")
        #expect(job.shownDestination == ":s3,provider=AWS,secret_access_key=***:bucket/door.mp4")
        #expect(UploadError("copy", job.destination, "refused").description == "copy to :s3,provider=AWS,secret_access_key=***:bucket/door.mp4: refused")
        var info = stat()
        #expect(stat(state.path + "/uploads/" + job.id + ".json", &info) == 0 && info.st_mode & 0o077 == 0, "the job file is the user's alone")
    }
}
