import Foundation
import Glibc
import VidrecCore
import VidrecSystem

/// The claim `vidrec serve`'s preview puts on a camera while it holds it: a file
/// `preview-PID.claim` in vidrec's runtime folder (beside the control sockets, 0700)
/// naming the camera's device path.
///
/// A vidrec that finds that camera busy (a recording that cron starts, a photo) asks the
/// preview to lend it (SIGUSR1 to the server) and waits until the claim is gone, which
/// the server removes once the camera is closed: a page left open on a phone never
/// costs a recording. The server then shows the recording's own picture.
struct PreviewClaim: Sendable {
    /// The claim's file.
    let path: String

    /// How long ``askToLend(_:in:timeout:)`` waits for a server to close the camera.
    static let lendTimeout: Int64 = 5_000_000_000

    /// Claims `camera` (a device path) for this process, in `folder`.
    static func make(camera: String, in folder: String) throws -> PreviewClaim {
        try PrivateFolder.prepare(folder, closed: true)
        let claim = PreviewClaim(path: folder + "/preview-\(getpid()).claim")
        try AtomicFile.write(Data((camera + "\n").utf8), to: claim.path, durable: false)
        return claim
    }

    /// Gives the claim up (the camera is closed).
    func remove() {
        _ = unlink(path)
    }

    /// Asks each server whose preview claims `camera` to lend it, and waits (up to
    /// `timeout` nanoseconds) until their claims are gone. A claim whose server is gone
    /// (killed) is removed.
    ///
    /// - Returns: the process IDs of the servers that lent the camera.
    static func askToLend(_ camera: String, in folder: String, timeout: Int64 = lendTimeout) -> [Int32] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        var asked: [(pid: Int32, path: String)] = []
        for name in names where name.hasPrefix("preview-") && name.hasSuffix(".claim") {
            let path = folder + "/" + name
            guard let pid = Int32(name.dropFirst("preview-".count).dropLast(".claim".count)), pid > 0, pid != getpid(),
                  let text = try? String(contentsOfFile: path, encoding: .utf8),
                  text.trimmingCharacters(in: .newlines) == camera else { continue }
            if kill(pid, 0) != 0, errno == ESRCH {
                _ = unlink(path)
                continue
            }
            if kill(pid, SIGUSR1) == 0 { asked.append((pid, path)) }
        }
        guard !asked.isEmpty else { return [] }
        let deadline = MonotonicClock.now() + timeout
        while asked.contains(where: { access($0.path, F_OK) == 0 }), MonotonicClock.now() < deadline {
            usleep(20_000)
        }
        return asked.filter { access($0.path, F_OK) != 0 }.map(\.pid)
    }
}
