import Glibc
import Synchronization
import VidrecMedia
import VidrecSystem

/// A ``MovieDescribing`` that remembers what another one said of each file until the
/// file changes (its device, inode, size or modification time): `vidrec serve` lists the
/// album every second, and reads a file's header only when it is new or changed.
///
/// A failure is remembered too, so that a file that cannot be read is not opened again
/// every second; a file whose status cannot be read is described afresh each time.
public final class CachedMovieDescriber: MovieDescribing {
    private struct Key: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var seconds: Int
        var nanoseconds: Int
    }

    /// The most files remembered; beyond it, everything is forgotten and read again.
    public static let limit = 20_000

    private let describer: any MovieDescribing
    private let cache = Mutex<[String: (key: Key, result: Result<MovieDescription, any Error>)]>([:])

    /// Remembers what `describer` says.
    public init(_ describer: any MovieDescribing) {
        self.describer = describer
    }

    public func describe(_ path: String) throws -> MovieDescription {
        guard let info = try? FileSystem.status(path) else { return try describer.describe(path) }
        let key = Key(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                      seconds: info.st_mtim.tv_sec, nanoseconds: info.st_mtim.tv_nsec)
        if let known = cache.withLock({ $0[path] }), known.key == key { return try known.result.get() }
        let result = Result { () throws(any Error) -> MovieDescription in try describer.describe(path) }
        cache.withLock { cache in
            if cache.count >= Self.limit { cache.removeAll() }
            cache[path] = (key, result)
        }
        return try result.get()
    }
}
