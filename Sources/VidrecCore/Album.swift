import CSystemShims
import Foundation
import Glibc
import VidrecMedia

/// The folder that saved recordings go to, like the Camera Roll for
/// `UISaveVideoAtPathToSavedPhotosAlbum`.
///
/// Adding a file is atomic and never replaces anything: on the same file system it is a
/// `renameat2(RENAME_NOREPLACE)`; across file systems the file is copied to a hidden
/// temporary name in the album, synced, and then renamed the same way. A name that is
/// taken gets ` (2)`, ` (3)`, … appended.
public struct Album: Sendable {
    /// The album folder.
    public let path: String

    /// Creates an album at `path` (created on first use).
    public init(path: String) { self.path = path }

    /// Creates the folder (and its parents) if needed and checks that it is a writable folder.
    ///
    /// - Throws: ``StoreError`` naming the path and the fix.
    public func prepare() throws {
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) != S_IFDIR { throw StoreError.albumNotAFolder(path) }
        } else if lstat(path, &info) == 0 {
            throw StoreError.albumNotAFolder(path)  // a dangling symbolic link
        } else {
            do { try Directories.create(path, mode: 0o755) } catch {
                throw StoreError.cannotWrite(path: path, reason: error.reason)
            }
        }
        if access(path, W_OK | X_OK) != 0 {
            throw StoreError.cannotWrite(path: path, reason: SystemError.describe(errno))
        }
    }

    /// Moves (or copies) `source` into the album as `name.ext`, or `name (N).ext`.
    ///
    /// - Returns: the path of the file in the album.
    /// - Throws: ``StoreError`` or ``SystemError``; `source` is untouched on failure.
    public func add(_ source: String, name: String, extension ext: String) throws -> String {
        try prepare()
        let albumFD = try systemCall("open", path) { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        defer { close(albumFD) }
        var info = stat()
        try systemCall("lstat", source) { lstat(source, &info) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw SystemError("save", source, errno: EINVAL)
        }
        // Same file system: one atomic rename.
        if let placed = try placeByRenaming(source, into: albumFD, name: name, ext: ext, sourceIsTemporary: false) {
            return placed
        }
        // Another file system: copy to a hidden name in the album, sync, rename.
        removeAbandonedCopies(in: albumFD)
        let temporary = ".vidrec-\(name)-\(getpid()).partial"
        try copy(source, toTemporary: temporary, in: albumFD)
        do {
            guard let placed = try placeByRenaming(temporary, into: albumFD, name: name, ext: ext, sourceIsTemporary: true) else {
                throw SystemError("rename", path, errno: EXDEV)
            }
            unlink(source)
            return placed
        } catch {
            unlinkat(albumFD, temporary, 0)
            throw error
        }
    }

    /// Tries `name.ext`, `name (2).ext`, … until one is free. Returns `nil` on EXDEV.
    private func placeByRenaming(_ source: String, into albumFD: Int32, name: String, ext: String,
                                 sourceIsTemporary: Bool) throws -> String? {
        for attempt in 1...10_000 {
            let candidate = attempt == 1 ? "\(name).\(ext)" : "\(name) (\(attempt)).\(ext)"
            let result = sourceIsTemporary
                ? csystem_rename_noreplace(albumFD, source, albumFD, candidate)
                : csystem_rename_noreplace(AT_FDCWD, source, albumFD, candidate)
            if result == 0 {
                fsync(albumFD)
                return path + "/" + candidate
            }
            switch errno {
            case EEXIST: continue
            case EXDEV: return nil
            case EACCES, EPERM, EROFS: throw StoreError.cannotWrite(path: path, reason: SystemError.describe(errno))
            default: throw SystemError.current("rename", "\(source) to \(path)/\(candidate)")
            }
        }
        throw SystemError("rename", path, errno: EEXIST)
    }

    /// Removes hidden copies left by a save that was killed mid-copy (their process,
    /// named in the file name, is gone), so the album never keeps half a file.
    private func removeAbandonedCopies(in albumFD: Int32) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in names where name.hasPrefix(".vidrec-") && name.hasSuffix(".partial") {
            guard let pid = Int32(name.dropLast(".partial".count).split(separator: "-").last ?? ""),
                  pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlinkat(albumFD, name, 0)
        }
    }

    private func copy(_ source: String, toTemporary name: String, in albumFD: Int32) throws {
        let input = try systemCall("open", source) { open(source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        defer { close(input) }
        unlinkat(albumFD, name, 0)
        let output: Int32
        do {
            output = try systemCall("create", "\(path)/\(name)") {
                openat(albumFD, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
            }
        } catch {
            throw StoreError.cannotWrite(path: path, reason: error.reason)
        }
        var succeeded = false
        defer {
            close(output)
            if !succeeded { unlinkat(albumFD, name, 0) }
        }
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try systemCall("read", source) { read(input, buffer, size) }
            if count == 0 { break }
            try writeAll(output, buffer, count, "\(path)/\(name)")
        }
        try systemCall("fsync", "\(path)/\(name)") { fsync(output) }
        succeeded = true
    }
}
