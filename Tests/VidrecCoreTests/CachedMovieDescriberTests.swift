import Foundation
import Glibc
import Synchronization
import Testing
import VidrecCore
import VidrecMedia

/// The album's headers as `vidrec serve` reads them every second: each file once, again
/// only when it changes.
@Suite struct CachedMovieDescriberTests {
    /// Describes a file by its size, and counts the files it was asked about.
    final class CountingHeaders: MovieDescribing {
        struct Unreadable: Error {}
        let asked = Mutex<[String]>([])
        func describe(_ path: String) throws -> MovieDescription {
            asked.withLock { $0.append((path as NSString).lastPathComponent) }
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            guard size > 0 else { throw Unreadable() }
            return MovieDescription(duration: Double(size), width: 640, height: 360, frameRate: 15, codecs: ["h264"], tags: [:])
        }
    }

    @Test func aFileIsReadOnceUntilItChanges() throws {
        let folder = try TemporaryDirectory()
        let headers = CountingHeaders()
        let cached = CachedMovieDescriber(headers)
        let door = try folder.write("door.mp4", "12345")
        #expect(try cached.describe(door).duration == 5)
        #expect(try cached.describe(door).duration == 5)
        #expect(headers.asked.withLock { $0 } == ["door.mp4"])

        // Longer: read again.
        let handle = try #require(FileHandle(forWritingAtPath: door))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("678".utf8))
        try handle.close()
        #expect(try cached.describe(door).duration == 8)
        // Another file of the same size moved over it (a new inode): read again.
        let other = try folder.write(".other.mp4", "abcdefgh")
        #expect(rename(other, door) == 0)
        #expect(try cached.describe(door).duration == 8)
        #expect(headers.asked.withLock { $0 } == ["door.mp4", "door.mp4", "door.mp4"])

        // Touched (a new modification time, same size): read again.
        var times = [timespec(tv_sec: 1_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, door, &times, 0) == 0)
        _ = try cached.describe(door)
        #expect(headers.asked.withLock { $0.count } == 4)
    }

    @Test func aFileThatCannotBeReadIsNotOpenedAgainUntilItChanges() throws {
        let folder = try TemporaryDirectory()
        let headers = CountingHeaders()
        let cached = CachedMovieDescriber(headers)
        let empty = try folder.write("broken.mp4", "")
        #expect(throws: CountingHeaders.Unreadable.self) { try cached.describe(empty) }
        #expect(throws: CountingHeaders.Unreadable.self) { try cached.describe(empty) }
        #expect(headers.asked.withLock { $0.count } == 1)
        try "now whole".write(toFile: empty, atomically: false, encoding: .utf8)
        #expect(try cached.describe(empty).duration == 9)
        // A file that is gone is asked about afresh: the underlying reader says so.
        let gone = folder.path + "/gone.mp4"
        #expect(throws: (any Error).self) { try cached.describe(gone) }
        #expect(headers.asked.withLock { $0 } == ["broken.mp4", "broken.mp4", "gone.mp4"])
    }
}
