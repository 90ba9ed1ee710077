import CSystemShims
import Foundation
import Glibc
import VidrecMedia
import VidrecSystem

/// The folder that saved recordings go to, like the Camera Roll for
/// `UISaveVideoAtPathToSavedPhotosAlbum`.
///
/// Adding a file is atomic and never replaces anything: on the same file system it is a
/// `renameat2(RENAME_NOREPLACE)`, or where the file system refuses that (9p, NFS, CIFS,
/// FUSE), a hard link, or without hard links (vfat), a rename onto an exclusively
/// created placeholder (see ``Placement``); across file systems the file is copied to a
/// hidden temporary name in the album, synced, and then placed the same way. A name
/// that is taken gets ` (2)`, ` (3)`, … appended.
public struct Album: Sendable {
    /// The album folder.
    public let path: String

    /// Creates an album at `path` (created on first use).
    public init(path: String) { self.path = path }

    /// The name of `file` inside the album folder `album`, folders included
    /// (`2026/11/30/door.mp4`), or `nil` when the file is not inside it.
    public static func name(of file: String, in album: String) -> String? {
        let folder = URL(fileURLWithPath: album).standardizedFileURL.path
        let full = URL(fileURLWithPath: file).standardizedFileURL.path
        guard full.hasPrefix(folder + "/") else { return nil }
        return String(full.dropFirst(folder.count + 1))
    }

    /// Creates the folder (and its parents) if needed and checks that it is a writable folder.
    ///
    /// - Throws: ``StoreError`` naming the path and the fix.
    public func prepare() throws {
        do {
            if let info = try FileSystem.status(path) {
                if (info.st_mode & S_IFMT) != S_IFDIR { throw StoreError.albumNotAFolder(path) }
            } else if try FileSystem.linkStatus(path) != nil {
                throw StoreError.albumNotAFolder(path)  // a dangling symbolic link
            } else {
                try Directories.create(path, mode: 0o755)
            }
            try FileSystem.checkAccess(path, W_OK | X_OK)
        } catch let error as SystemError {
            throw StoreError.cannotWrite(path: path, reason: error.reason)
        }
    }

    /// Moves (or copies) `source` into the album as `name.ext`, or `name (N).ext`.
    ///
    /// - Parameter copied: across file systems, called with the device and inode of
    ///   the synced copy before it takes its name in the album and `source` is
    ///   removed: a save killed between those two steps leaves the recording in both
    ///   places, and the copy's identity tells the next run which album file it became.
    /// - Returns: the path of the file in the album.
    /// - Throws: ``StoreError`` or ``SystemError``; `source` is untouched on failure.
    public func add(_ source: String, name: String, extension ext: String,
                    copied: (_ device: UInt64, _ inode: UInt64) throws -> Void = { _, _ in }) throws -> String {
        try prepare()
        let albumFD = try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY)
        defer { albumFD.close() }
        guard let info = try FileSystem.linkStatus(source) else { throw SystemError("lstat", source, errno: ENOENT) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw SystemError("save", source, errno: EINVAL)
        }
        removeAbandonedCopies(in: albumFD)
        // Same file system: one atomic step.
        if let placed = try place(source, from: .currentDirectory, into: albumFD, name: name, ext: ext) {
            return placed
        }
        // Another file system: copy to a hidden name in the album, sync, place that.
        let temporary = ".vidrec-\(name)-\(getpid()).partial"
        let identity = try copy(source, toTemporary: temporary, in: albumFD)
        do {
            try copied(identity.device, identity.inode)
            guard let placed = try place(temporary, from: albumFD, into: albumFD, name: name, ext: ext) else {
                throw SystemError("rename", path, errno: EXDEV)
            }
            FileSystem.removeQuietly(source)
            return placed
        } catch {
            albumFD.removeQuietly(temporary)
            throw error
        }
    }

    /// How a file is put under its final name without ever replacing another. The first
    /// that the file system supports is used; each keeps the guarantees: the final name
    /// never shows half a file, and a name that is taken is never overwritten.
    enum Placement {
        /// `renameat2(RENAME_NOREPLACE)`: one atomic step (ext4, xfs, btrfs, tmpfs, vfat).
        case renameNoReplace
        /// `linkat`, which fails on a taken name, then `unlink` of the source: for file
        /// systems that refuse RENAME_NOREPLACE (9p, NFS, CIFS, many FUSE ones).
        case link
        /// A placeholder claimed with `O_CREAT|O_EXCL`, then a plain `rename` onto it: for
        /// file systems without hard links either. A kill between the two leaves an empty
        /// placeholder, which the next save removes (its claim file names it).
        case placeholder
    }

    /// Puts `source` (relative to `sourceDirectory`) into the album as `name.ext` or
    /// `name (N).ext`. Returns `nil` when it is on another file system (EXDEV).
    func place(_ source: String, from sourceDirectory: FileDescriptor, into albumFD: FileDescriptor, name: String, ext: String,
               startingWith first: Placement = .renameNoReplace) throws -> String? {
        var method = first
        var attempt = 1
        while attempt <= 10_000 {
            let candidate = attempt == 1 ? "\(name).\(ext)" : "\(name) (\(attempt)).\(ext)"
            let describe = "\(source) to \(path)/\(candidate)"
            do {
                switch method {
                case .renameNoReplace:
                    try systemCall(.renameat2, describe) {
                        csystem_rename_noreplace(sourceDirectory.rawValue, source, albumFD.rawValue, candidate)
                    }
                case .link:
                    try systemCall(.linkat, describe) { linkat(sourceDirectory.rawValue, source, albumFD.rawValue, candidate, 0) }
                    sourceDirectory.removeQuietly(source)
                case .placeholder:
                    try placeOntoPlaceholder(source, from: sourceDirectory, into: albumFD, candidate: candidate)
                }
                // The new name is on disk before the save reports it.
                try? albumFD.sync(path)
                return path + "/" + candidate
            } catch {
                let code = error.errno
                if code == EEXIST {
                    attempt += 1
                } else if code == EXDEV {
                    return nil
                } else if method == .renameNoReplace, [EINVAL, ENOTSUP, ENOSYS].contains(code) {
                    method = .link
                } else if method == .link, [EPERM, ENOTSUP, ENOSYS, EINVAL, EMLINK].contains(code) {
                    method = .placeholder
                } else if [EACCES, EPERM, EROFS].contains(code) {
                    throw StoreError.cannotWrite(path: path, reason: error.reason)
                } else {
                    throw error
                }
            }
        }
        throw SystemError("rename", path, errno: EEXIST)
    }

    /// Claims `candidate` with an empty file created exclusively, then renames the
    /// source onto it. The claim file `.vidrec-claim-PID` names the placeholder while the
    /// two steps run, so that a save killed between them can be cleaned up.
    private func placeOntoPlaceholder(_ source: String, from sourceDirectory: FileDescriptor, into albumFD: FileDescriptor,
                                      candidate: String) throws(SystemError) {
        let claim = ".vidrec-claim-\(getpid())"
        let claimFD = try albumFD.open(claim, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, operation: .create,
                                       subject: "\(path)/\(claim)")
        defer { albumFD.removeQuietly(claim) }
        let text = Array(candidate.utf8)
        try claimFD.closeAfter { () throws(SystemError) in
            try claimFD.writeAll(text, count: text.count, "\(path)/\(claim)")
            try claimFD.sync("\(path)/\(claim)")
        }
        try albumFD.open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, permissions: 0o644, operation: .create,
                         subject: "\(path)/\(candidate)").close()
        do {
            try systemCall(.renameat, "\(source) to \(path)/\(candidate)") {
                renameat(sourceDirectory.rawValue, source, albumFD.rawValue, candidate)
            }
        } catch {
            albumFD.removeQuietly(candidate)
            throw error
        }
    }

    /// Removes hidden copies and placeholders left by a save that was killed (their
    /// process, named in the file name, is gone), so the album never keeps half a file.
    private func removeAbandonedCopies(in albumFD: FileDescriptor) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        func abandoned(_ pidText: Substring?) -> Bool {
            guard let pid = Int32(pidText ?? ""), pid != getpid() else { return false }
            return FileSystem.processIsGone(pid)
        }
        for name in names where name.hasPrefix(".vidrec-") {
            if name.hasSuffix(".partial"), abandoned(name.dropLast(".partial".count).split(separator: "-").last) {
                albumFD.removeQuietly(name)
            } else if name.hasPrefix(".vidrec-claim-"), abandoned(name.split(separator: "-").last) {
                // The placeholder it names, if still empty, never received its file.
                if let data = StateFile.contents(path + "/" + name, limit: 4096),
                   let candidate = String(data: data, encoding: .utf8), RecordingStore.isValidName(candidate) {
                    if let info = albumFD.linkStatus(candidate), (info.st_mode & S_IFMT) == S_IFREG, info.st_size == 0 {
                        albumFD.removeQuietly(candidate)
                    }
                }
                albumFD.removeQuietly(name)
            }
        }
    }

    /// Copies `source` to `name` in the album and syncs it; returns the copy's device
    /// and inode.
    private func copy(_ source: String, toTemporary name: String, in albumFD: FileDescriptor) throws
        -> (device: UInt64, inode: UInt64) {
        let input = try FileDescriptor.open(source, O_RDONLY | O_NOFOLLOW)
        defer { input.close() }
        albumFD.removeQuietly(name)
        // The copy keeps the source's mode, as a rename on the same disk does.
        var info = stat()
        try systemCall(.fstat, source) { fstat(input.rawValue, &info) }
        let output: FileDescriptor
        do {
            output = try albumFD.open(name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, permissions: info.st_mode & 0o777,
                                      operation: .create, subject: "\(path)/\(name)")
        } catch {
            throw StoreError.cannotWrite(path: path, reason: error.reason)
        }
        var succeeded = false
        defer {
            output.close()
            if !succeeded { albumFD.removeQuietly(name) }
        }
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try input.read(into: buffer, count: size, source)
            if count == 0 { break }
            try output.writeAll(buffer, count: count, "\(path)/\(name)")
        }
        try output.sync("\(path)/\(name)")
        var copiedInfo = stat()
        try systemCall(.fstat, "\(path)/\(name)") { fstat(output.rawValue, &copiedInfo) }
        succeeded = true
        return (UInt64(copiedInfo.st_dev), UInt64(copiedInfo.st_ino))
    }
}
