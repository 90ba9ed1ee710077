import CSystemShims
import Glibc
import Synchronization

/// Wakes a thread that waits for a device to come back as soon as something appears in
/// the folders where the kernel and udev make device nodes and their stable names
/// (inotify on `/dev`, `/dev/snd`, `/dev/v4l/by-id`, …), instead of at its next try.
/// A folder that does not exist yet (`/dev/v4l/by-id` with no camera plugged in) is
/// watched from the first wait after it appears; its parent's event says when.
public final class DeviceWatch: Sendable {
    /// Where device nodes and their links appear: V4L2's nodes and udev's stable names,
    /// and ALSA's.
    public static let deviceFolders = ["/dev", "/dev/v4l", "/dev/v4l/by-id", "/dev/v4l/by-path", "/dev/snd"]

    private let descriptor: FileDescriptor
    private let folders: [String]
    /// The folders watched so far.
    private let watched = Mutex<Set<String>>([])

    /// Watches `folders` (those that exist now; the others once they do).
    ///
    /// - Throws: ``SystemError`` when no inotify instance can be made (EMFILE).
    public init(folders: [String] = DeviceWatch.deviceFolders) throws(SystemError) {
        descriptor = FileDescriptor(rawValue: try systemCall(.inotifyInit, "device folders") { csystem_inotify_init() })
        self.folders = folders
        watchFolders()
    }

    /// Adds a watch for each folder that has appeared since the last call.
    private func watchFolders() {
        watched.withLock { watched in
            for folder in folders where !watched.contains(folder) {
                // ENOENT: not there yet, watched once it is.
                if systemCallErrno(.inotifyAddWatch, { csystem_inotify_watch_folder(descriptor.rawValue, folder) }) == 0 {
                    watched.insert(folder)
                }
            }
        }
    }

    /// Waits up to `milliseconds` for something to appear in the folders (or change its
    /// attributes, as udev does when it gives a node its group), or for `wake`.
    ///
    /// - Returns: whether something appeared; `false` after the time, or when woken.
    public func wait(milliseconds: Int32, orWake wake: WakeSignal) -> Bool {
        watchFolders()
        let ready = (try? descriptor.poll(Int16(POLLIN), orWake: wake, milliseconds: milliseconds, "device folders")) ?? 0
        guard ready & Int16(POLLIN) != 0 else { return false }
        // What appeared does not matter: the waiter tries its device again. The events
        // are read so that the next wait waits.
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ Glibc.read(descriptor.rawValue, $0.baseAddress, $0.count) }) > 0 {}
        return true
    }

    deinit { descriptor.close() }
}
