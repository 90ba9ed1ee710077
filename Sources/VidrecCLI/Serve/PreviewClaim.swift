import Foundation
import Glibc
import VidrecCore
import VidrecSystem

/// The claim `vidrec serve`'s preview puts on a camera while it holds it: a file
/// `preview-PID.claim` in vidrec's runtime folder (beside the control sockets, 0700)
/// naming the camera's device path, on which the server holds a write lock (a POSIX
/// record lock) for as long as the claim stands.
///
/// A vidrec that finds that camera busy (a recording that cron starts, a photo) asks the
/// preview to lend it (SIGUSR1 to the server) and waits until the claim is gone, which
/// the server removes once the camera is closed: a page left open on a phone never
/// costs a recording. The server then shows the recording's own picture.
///
/// Only the process that holds the claim's lock is signalled, through a pidfd taken
/// while it holds it: a stale claim (its server killed) names a PID that may belong to
/// any process by now, and is removed instead.
struct PreviewClaim: Sendable {
    /// The claim's file.
    let path: String
    /// The claim open, with its lock: closed, the lock goes.
    private let lock: FileDescriptor

    /// How long ``askToLend(_:in:timeout:)`` waits for a server to close the camera.
    static let lendTimeout: Int64 = 5_000_000_000
    /// How often it looks whether a claim is gone (ns).
    static let lookInterval: Int64 = 20_000_000

    /// Claims `camera` (a device path) for this process, in `folder`.
    ///
    /// - Throws: the folder's or the file's error.
    static func make(camera: String, in folder: String) throws -> PreviewClaim {
        try PrivateFolder.prepare(folder, closed: true)
        let path = folder + "/preview-\(getpid()).claim"
        try AtomicFile.write(Data((camera + "\n").utf8), to: path, durable: false)
        let lock = try FileDescriptor.open(path, O_RDWR | O_NOFOLLOW)
        do {
            guard try lock.lockRecord(path) else { throw SystemError("lock", path, errno: EAGAIN) }
        } catch {
            lock.close()
            FileSystem.removeQuietly(path)
            throw error
        }
        return PreviewClaim(path: path, lock: lock)
    }

    /// Gives the claim up (the camera is closed): the file goes, then its lock.
    func remove() {
        FileSystem.removeQuietly(path)
        lock.close()
    }

    /// Asks each server whose preview claims `camera` to lend it, and waits (up to
    /// `timeout` nanoseconds) until their claims are gone. A claim that no process
    /// holds (its server was killed) is removed, and nobody is signalled for it.
    ///
    /// - Returns: the process IDs of the servers that lent the camera.
    static func askToLend(_ camera: String, in folder: String, timeout: Int64 = lendTimeout) -> [Int32] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var asked: [(pid: Int32, path: String)] = []
        for name in names where name.hasPrefix("preview-") && name.hasSuffix(".claim") {
            let path = folder + "/" + name
            guard let pid = Int32(name.dropFirst("preview-".count).dropLast(".claim".count)), pid > 0, pid != getpid(),
                  let data = try? StateFile.read(path, limit: 4096),
                  String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines) == camera else { continue }
            if let holder = holder(of: path, named: pid) {
                asked.append((holder, path))
            }
        }
        guard !asked.isEmpty else { return [] }
        let deadline = MonotonicClock.now() + timeout
        while asked.contains(where: { (try? FileSystem.linkStatus($0.path)) != nil }), MonotonicClock.now() < deadline {
            Thread.sleep(forTimeInterval: Double(lookInterval) / 1e9)
        }
        return asked.filter { (try? FileSystem.linkStatus($0.path)) == nil }.map(\.pid)
    }

    /// Signals the server that holds the claim at `path` (SIGUSR1), if it is the process
    /// `pid` its name says: the lock's holder is asked for, a pidfd taken on it, and the
    /// lock asked for again, so that the signal goes to the process that held the lock
    /// while its pidfd was taken. A claim nobody holds is removed.
    ///
    /// - Returns: the server's PID, or `nil` when nobody was signalled.
    private static func holder(of path: String, named pid: Int32) -> Int32? {
        guard let claim = try? FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK) else { return nil }
        return claim.closeAfter { () -> Int32? in
            let found: Int32?
            do { found = try claim.recordLockHolder(path) } catch { return nil }
            guard let holder = found else {
                FileSystem.removeQuietly(path)
                return nil
            }
            guard holder == pid, let process = try? ProcessHandle(pid: holder),
                  (try? claim.recordLockHolder(path)) == holder,
                  (try? process.send(SIGUSR1)) != nil else { return nil }
            return holder
        }
    }
}
