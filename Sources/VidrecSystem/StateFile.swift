import Foundation
import Glibc

/// Reads the small files vidrec keeps its state in (sidecars, the album manifest, upload
/// jobs, presets) as untrusted input: a regular file only, never through a symbolic link
/// (`O_NOFOLLOW`), never waiting on a FIFO or a device (`O_NONBLOCK`, then `fstat`), and
/// never more than `limit` bytes.
public enum StateFile {
    /// The most a state file may hold: sidecars and jobs are a few KB, a manifest of
    /// many thousand saves a few MB.
    public static let defaultLimit = 16 << 20

    /// The bytes of the regular file at `path`, or `nil` when there is no file there.
    ///
    /// - Throws: ``SystemError``: ELOOP for a link, EINVAL for something that is not a
    ///   regular file, EFBIG past `limit`, or the error of `open`/`read`.
    /// The corresponding C functions are `open`, `fstat` and `read`.
    ///   `followingLinks` reads through a symbolic link (a preset the user links to).
    public static func read(_ path: String, limit: Int = defaultLimit, followingLinks: Bool = false) throws(SystemError) -> Data? {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW))
        } catch where error.errno == ENOENT {
            return nil
        }
        return try fd.closeAfter { () throws(SystemError) -> Data in
            var info = stat()
            try systemCall(.fstat, path) { fstat(fd.rawValue, &info) }
            guard (info.st_mode & S_IFMT) == S_IFREG else { throw SystemError("read", path, errno: EINVAL) }
            guard info.st_size <= limit else { throw SystemError("read", path, errno: EFBIG) }
            var data = Data()
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
            defer { chunk.deallocate() }
            while true {
                let count = try fd.read(into: chunk.baseAddress!, count: chunk.count, path)
                if count == 0 { return data }
                data.append(contentsOf: chunk[0..<count])
                if data.count > limit { throw SystemError("read", path, errno: EFBIG) }
            }
        }
    }

    /// ``read(_:limit:)``, with any failure read as "no file": for hints such as the
    /// progress file, where a missing or damaged one only means nothing to show.
    public static func contents(_ path: String, limit: Int = defaultLimit) -> Data? {
        (try? read(path, limit: limit)) ?? nil
    }
}
