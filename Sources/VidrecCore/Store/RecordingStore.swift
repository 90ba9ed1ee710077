import Foundation
import Glibc
import VidrecMedia
import VidrecSystem

/// The pending area: recordings that have been made but not yet saved to the album,
/// each as a media file plus a JSON sidecar, like the temporary movie file that
/// `UIImagePickerController` hands over before it is saved to the Camera Roll.
///
/// Layout under `<state>/pending` (mode 0700, owned by the user, never group- or
/// world-writable: ``PrivateFolder``): `ID.partial.EXT` while recording, `ID.EXT` once
/// finalized, `ID.json` (the sidecar), `ID.lock` (held while recording). The running
/// recording's control socket is in ``VidrecPaths/runtimeDirectory``, named in the
/// sidecar. Still photos (`vidrec snap`) are kept the same way, as `ID.jpg`.
public struct RecordingStore: Sendable {
    /// A pending recording as found on disk.
    public struct Entry: Sendable {
        /// The sidecar as last written.
        public var sidecar: RecordingSidecar
        /// The effective state: `recording` whose lock is free reads as `interrupted`.
        public var state: RecordingSidecar.State
        /// The finalized file, once it exists.
        public var mediaPath: String
        /// The file being written (and what a crash leaves behind).
        public var partialPath: String
        /// The lock held while recording.
        public var lockPath: String
        /// The running recording's control socket (`vidrec snap` asks it for photos).
        /// A segment of a continuous recording names the socket of the recording's first.
        public var controlPath: String { sidecar.controlSocket ?? ownControlPath }
        /// `ID.sock` in the pending folder, where an older vidrec made it.
        var ownControlPath: String { (lockPath as NSString).deletingPathExtension + ".sock" }
        /// Whether this is a still photo (`vidrec snap`) rather than a movie.
        public var isPhoto: Bool { sidecar.container == .jpeg }
        /// The ID.
        public var id: String { sidecar.id }
        /// Bytes in whichever file exists.
        public var bytes: Int64 {
            for path in [mediaPath, partialPath] {
                if let info = try? FileSystem.status(path) { return Int64(info.st_size) }
            }
            return 0
        }
    }

    /// The pending folder.
    public let directory: String

    /// The longest name to save under, in bytes: with ` (NNNN)` and an extension it
    /// still fits the 255 bytes a file name may have.
    public static let maximumNameBytes = 200

    /// Whether `name` can be saved under: a plain file name, not hidden, not too long, and
    /// printable. Checked on its bytes as the kernel sees them (a `/` joined to a combining
    /// mark is still a `/` there), with every control character refused (newline, ESC:
    /// they would be printed back to a terminal). `--as` and the save step check with this.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = name.utf8
        return !bytes.isEmpty && bytes.count <= maximumNameBytes && bytes.first != UInt8(ascii: ".")
            && !bytes.contains(UInt8(ascii: "/")) && !TextSafety.hasControlCharacters(name)
    }

    /// Whether `name` can be saved under inside the album, with folders: a file name
    /// (``isValidName(_:)``) after any number of folder names that are valid names too
    /// (`2026/11/30/door-120000`, from `--name '%Y/%m/%d/door-%H%M%S'`), split where the
    /// kernel splits it, at every `/` byte.
    public static func isValidAlbumPath(_ name: String) -> Bool {
        let parts = name.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        return parts.count <= 16 && parts.allSatisfy { isValidName(String(decoding: $0, as: UTF8.self)) && !$0.isEmpty }
    }

    /// Opens the pending area under `stateDirectory`, creating it with mode 0700.
    ///
    /// - Throws: ``StoreError/cannotWrite(path:reason:)`` when it cannot be created.
    public init(stateDirectory: String) throws {
        directory = stateDirectory + "/pending"
        do {
            try PrivateFolder.prepare(stateDirectory)
            try PrivateFolder.prepare(directory)
        } catch let error as SystemError {
            throw StoreError.cannotWrite(path: error.subject, reason: error.reason)
        }
        guard FileSystem.isDirectory(directory) else {
            throw StoreError.cannotWrite(path: directory, reason: "not a folder")
        }
        do { try FileSystem.checkAccess(directory, W_OK | X_OK) } catch {
            throw StoreError.cannotWrite(path: directory, reason: error.reason)
        }
    }

    private func entry(for sidecar: RecordingSidecar) -> Entry {
        let base = directory + "/" + sidecar.id
        let lockPath = base + ".lock"
        var state = sidecar.state
        if state == .recording, !RecordingLock.isHeld(lockPath) { state = .interrupted }
        return Entry(sidecar: sidecar, state: state, mediaPath: "\(base).\(sidecar.container.fileExtension)",
                     partialPath: "\(base).partial.\(sidecar.container.fileExtension)", lockPath: lockPath)
    }

    /// Starts a new recording: picks an ID from `date`, takes its lock and writes its sidecar.
    ///
    /// - Parameter makeSidecar: builds the sidecar for the chosen ID.
    /// - Returns: the entry and the lock, which the caller holds until it is done.
    public func create(at date: Date, _ makeSidecar: (String) -> RecordingSidecar) throws -> (Entry, RecordingLock) {
        let stem = DateText.recordingID(date)
        for attempt in 1...1000 {
            let id = attempt == 1 ? stem : "\(stem)-\(attempt)"
            let sidecarPath = directory + "/" + id + ".json"
            if FileManager.default.fileExists(atPath: sidecarPath) { continue }
            guard let lock = try RecordingLock(acquiring: directory + "/" + id + ".lock") else { continue }
            if FileManager.default.fileExists(atPath: sidecarPath) { continue }
            let sidecar = makeSidecar(id)
            try write(sidecar)
            return (entry(for: sidecar), lock)
        }
        throw StoreError.cannotWrite(path: directory, reason: "no free recording ID")
    }

    /// Replaces a sidecar atomically (write, fsync, rename).
    public func write(_ sidecar: RecordingSidecar) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(sidecar)
        try AtomicFile.write(data, to: directory + "/" + sidecar.id + ".json", durable: true)
    }

    /// Every pending recording, oldest first. Sidecars whose media is gone (a save that
    /// finished moving the file but was killed before removing the sidecar) are
    /// removed. A sidecar that cannot be read (damaged, not a regular file, another
    /// recording's) never hides its recording: it is moved aside to `ID.json.damaged`
    /// and a new one is made from the media file, which is listed as interrupted (or
    /// finished), its ``RecordingSidecar/endReason`` saying what happened.
    public func list() -> [Entry] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        var entries: [Entry] = []
        var seen: Set<String> = []
        for name in names where name.hasSuffix(".json") {
            let path = directory + "/" + name
            let id = String(name.dropLast(".json".count))
            guard RecordingStore.isValidID(id) else { continue }
            seen.insert(id)
            var sidecar: RecordingSidecar
            do {
                guard let data = try StateFile.read(path, limit: 1 << 20) else { continue }
                let decoded = try JSONDecoder().decode(RecordingSidecar.self, from: data)
                guard decoded.id == id else {
                    throw StoreError.damagedSidecar(path, reason: "it names another recording, '\(TextSafety.printable(decoded.id))'")
                }
                sidecar = decoded
            } catch {
                guard let rebuilt = rebuild(id: id, damaged: path, reason: error) else {
                    if !RecordingLock.isHeld(directory + "/" + id + ".lock") {
                        try? FileSystem.rename(path, to: path + ".damaged")  // nothing to recover: kept aside
                    }
                    continue
                }
                sidecar = rebuilt
            }
            var entry = entry(for: sidecar)
            // A save killed with the recording in the album and still here: the album's.
            if entry.state != .recording, finishKilledSave(entry) != nil { continue }
            if entry.state == .interrupted {
                // A crashed recording's lock file: nobody holds it any more.
                FileSystem.removeQuietly(entry.lockPath)
            }
            if !hasMedia(entry) && entry.state != .recording {
                // Its media under another container's name (a changed sidecar), or gone:
                // a save that finished moving the file was killed before removing this.
                guard let rebuilt = rebuild(id: id, damaged: path, reason: StoreError.damagedSidecar(
                    path, reason: "it names a .\(sidecar.container.fileExtension) file that is not there")) else {
                    remove(entry)
                    continue
                }
                entry = self.entry(for: rebuilt)
            }
            entries.append(entry)
        }
        // Media whose sidecar is gone altogether.
        for name in names {
            guard let id = RecordingStore.recordingID(ofMedia: name), !seen.contains(id) else { continue }
            seen.insert(id)
            let missing = StoreError.damagedSidecar(directory + "/" + id + ".json", reason: "it is missing")
            if let rebuilt = rebuild(id: id, damaged: nil, reason: missing) { entries.append(entry(for: rebuilt)) }
        }
        return entries.sorted { $0.id < $1.id }
    }

    private func hasMedia(_ entry: Entry) -> Bool {
        FileManager.default.fileExists(atPath: entry.mediaPath) || FileManager.default.fileExists(atPath: entry.partialPath)
    }

    /// The recording ID in a media file's name (`ID.EXT`, `ID.partial.EXT`), if it is one.
    static func recordingID(ofMedia name: String) -> String? {
        for container in Container.allCases {
            for suffix in [".partial." + container.fileExtension, "." + container.fileExtension] where name.hasSuffix(suffix) {
                let id = String(name.dropLast(suffix.count))
                return isValidID(id) ? id : nil
            }
        }
        return nil
    }

    /// Whether `id` can be a recording's ID: vidrec's are digits and `-`
    /// (`20261201-093015-2`); anything else in the pending folder is not vidrec's.
    public static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 64 && id.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// A new sidecar for the recording `id`, whose own at `damaged` could not be used
    /// (`reason`; `nil`: there was none), made from its media file; the damaged one is
    /// moved aside. `nil` while the recording runs (its process rewrites the sidecar), or
    /// when it has no media file.
    private func rebuild(id: String, damaged: String?, reason: Error) -> RecordingSidecar? {
        let base = directory + "/" + id
        guard !RecordingLock.isHeld(base + ".lock") else { return nil }
        let found = Container.allCases.lazy.compactMap { container -> (Container, String, Bool)? in
            for (path, partial) in [("\(base).\(container.fileExtension)", false), ("\(base).partial.\(container.fileExtension)", true)] {
                if let info = try? FileSystem.linkStatus(path), info.st_mode & S_IFMT == S_IFREG { return (container, path, partial) }
            }
            return nil
        }.first
        guard let (container, media, partial) = found else { return nil }
        if let damaged { try? FileSystem.rename(damaged, to: damaged + ".damaged") }
        let modified = (try? FileSystem.linkStatus(media)).map { Date(timeIntervalSince1970: Double($0.st_mtim.tv_sec)) } ?? Date()
        var sidecar = RecordingSidecar(id: id, preset: "unknown", presetFile: "", camera: "unknown", microphone: nil,
                                       container: container, startTime: modified, pid: 0, maxDuration: nil)
        sidecar.state = partial ? .interrupted : .finished
        sidecar.rebuilt = true
        let why: String = switch reason {
        case StoreError.damagedSidecar(_, let reason): reason
        case let error as SystemError: error.reason
        default: "it is not a sidecar vidrec can read"
        }
        sidecar.endReason = "its sidecar could not be used (\(why)) and was made again from the file"
            + (damaged.map { "; the old one is \(($0 as NSString).lastPathComponent).damaged" } ?? "")
        try? write(sidecar)
        return sidecar
    }

    /// The recording with `id`.
    public func entry(id: String) throws -> Entry {
        let all = list()
        guard let entry = all.first(where: { $0.id == id }) else {
            throw StoreError.unknownID(id, available: all.map(\.id))
        }
        return entry
    }

    /// The newest recording that can be saved (finished, failed or interrupted).
    public func newestSavable(command: String) throws -> Entry {
        guard let entry = list().last(where: { $0.state != .recording }) else {
            throw StoreError.nothingPending(command: command)
        }
        return entry
    }

    /// Recordings being written now.
    public func running() -> [Entry] { list().filter { $0.state == .recording } }

    /// Recordings being written now, one for each recording process. A process may have
    /// several entries open: two segments for a moment at a cut, an event file beside
    /// its segments or beside the recording waiting for triggers. The one that reports
    /// its progress stands for it (the open segment, the waiting recording), else the
    /// newest.
    public func runningRecordings() -> [Entry] {
        var chosen: [Int32: (entry: Entry, reports: Bool)] = [:]
        for entry in running() where !entry.isPhoto {
            let reports = FileManager.default.fileExists(atPath: progressPath(entry.id))
            if let held = chosen[entry.sidecar.pid], held.reports, !reports { continue }
            chosen[entry.sidecar.pid] = (entry, reports)
        }
        return chosen.values.map(\.entry).sorted { $0.id < $1.id }
    }

    /// Finalizes a finished write or recovers an interrupted one: turns `ID.partial.EXT`
    /// into `ID.EXT` (indexed in place by `finalizer` where the container needs it).
    ///
    /// - Parameter trimToCommonEnd: end both streams together, cutting what one holds
    ///   past the other's end (see ``MovieFinalizing``); by default for a recording cut
    ///   off by a crash. A recording whose file failed to be written needs it too.
    /// - Returns: the playable duration in seconds, when the file was indexed.
    @discardableResult
    public func finalize(_ entry: Entry, with finalizer: any MovieFinalizing,
                         trimToCommonEnd: Bool? = nil) throws -> Double? {
        guard FileManager.default.fileExists(atPath: entry.partialPath) else { return nil }
        guard !FileManager.default.fileExists(atPath: entry.mediaPath) else {
            FileSystem.removeQuietly(entry.partialPath)
            return nil
        }
        var duration: Double?
        if finalizer.indexes(entry.sidecar.container) {
            // In place: a crash part-way leaves the partial file, which finalizing again
            // finishes.
            duration = try finalizer.finalize(entry.partialPath,
                                              trimToCommonEnd: trimToCommonEnd ?? (entry.state == .interrupted))
        }
        try FileSystem.rename(entry.partialPath, to: entry.mediaPath)
        return duration
    }

    /// Moves a recording into `album` and removes it from the pending area.
    ///
    /// Interrupted recordings are finalized first. A `kill -9` at any moment leaves the
    /// recording either pending or in the album, whole; across file systems, killed
    /// between the copy taking its name and the pending file's removal, it is in both
    /// until the next listing (``finishKilledSave(_:)``) removes the pending one. A
    /// listing in another process while the copy is still hidden keeps the note, so a
    /// kill just after does not leave the recording in both places either.
    ///
    /// - Returns: the path in the album.
    public func commit(_ entry: Entry, to album: Album, name: String?,
                       finalizer: any MovieFinalizing) throws -> String {
        if entry.state == .recording { throw StoreError.stillRecording(entry.id, pid: entry.sidecar.pid) }
        let name = name ?? entry.sidecar.saveName ?? "vidrec-\(entry.id)"
        guard RecordingStore.isValidAlbumPath(name) else {
            throw StoreError.invalidName(name)
        }
        if entry.state == .interrupted || FileManager.default.fileExists(atPath: entry.partialPath) {
            try finalize(entry, with: finalizer)
        }
        guard FileManager.default.fileExists(atPath: entry.mediaPath) else { throw StoreError.missingFile(entry.mediaPath) }
        var base = name
        let ext = entry.sidecar.container.fileExtension
        if base.lowercased().hasSuffix("." + ext) { base = String(base.dropLast(ext.count + 1)) }
        // Folders in the name (`2026/11/30/door`) are made inside the album.
        var target = album
        if let slash = base.lastIndex(of: "/") {
            target = Album(path: album.path + "/" + base[..<slash])
            base = String(base[base.index(after: slash)...])
        }
        let saved = try target.add(entry.mediaPath, name: base, extension: ext) { device, inode in
            try noteSave(of: entry, device: device, inode: inode, album: target.path)
        }
        remove(entry)
        return saved
    }

    /// Notes that `entry` is being saved across file systems as the file with `device`
    /// and `inode` in `album` (``finishKilledSave(_:)`` reads it).
    func noteSave(of entry: Entry, device: UInt64, inode: UInt64, album: String) throws {
        try AtomicFile.write(Data("\(device) \(inode) \(album)".utf8), to: savingPath(entry.id), durable: false)
    }

    /// Where a save across file systems notes the album copy it is placing (`ID.saving`:
    /// the copy's device, inode and album folder) until the pending file is removed.
    private func savingPath(_ id: String) -> String {
        directory + "/" + id + ".saving"
    }

    /// Finishes a save that was killed after its copy took its name in the album and
    /// before the pending file was removed: when `entry`'s note names a file in the
    /// album that is there (the same device and inode), the pending file goes and the
    /// recording is the album's alone. A note whose copy has no name in the album is
    /// kept: the save may be under way in another process, about to give it one (or it
    /// was killed before, and the next save, or a discard, replaces the note).
    ///
    /// - Returns: the album file, when the save had finished there.
    func finishKilledSave(_ entry: Entry) -> String? {
        guard let data = StateFile.contents(savingPath(entry.id), limit: 1 << 12) else { return nil }
        let fields = String(decoding: data, as: UTF8.self).split(separator: " ", maxSplits: 2).map(String.init)
        guard fields.count == 3, let device = UInt64(fields[0]), let inode = UInt64(fields[1]),
              let names = try? FileManager.default.contentsOfDirectory(atPath: fields[2]) else { return nil }
        for name in names where !name.hasPrefix(".") {
            let path = fields[2] + "/" + name
            guard let info = try? FileSystem.linkStatus(path), (info.st_mode & S_IFMT) == S_IFREG,
                  UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode else { continue }
            FileSystem.removeQuietly(entry.mediaPath, entry.partialPath)
            remove(entry)
            return path
        }
        return nil
    }

    /// Deletes a recording's files and sidecar.
    public func discard(_ entry: Entry) throws {
        if entry.state == .recording { throw StoreError.stillRecording(entry.id, pid: entry.sidecar.pid) }
        for path in [entry.mediaPath, entry.partialPath] { try FileSystem.removeIfPresent(path) }
        remove(entry)
    }

    /// Deletes a recording that its own process could not start (the caller holds its
    /// lock, so ``discard(_:)`` would refuse).
    public func abandon(_ entry: Entry) {
        FileSystem.removeQuietly(entry.mediaPath, entry.partialPath)
        remove(entry)
    }

    /// Where recording `id` reports its progress: `ID.progress` in the pending folder.
    private func progressPath(_ id: String) -> String {
        directory + "/" + id + ".progress"
    }

    /// Records how far a running recording has come, for `vidrec status`: `ID.progress`,
    /// replaced (write, rename) twice a second and never synced, since it is only a hint.
    public func writeProgress(_ progress: SessionProgress, id: String) {
        guard let data = try? JSONEncoder().encode(progress) else { return }
        try? AtomicFile.write(data, to: progressPath(id), durable: false)
    }

    /// How far a running recording has come, as it last said.
    public func progress(of entry: Entry) -> SessionProgress? {
        guard let data = StateFile.contents(progressPath(entry.id), limit: 1 << 20) else { return nil }
        return try? JSONDecoder().decode(SessionProgress.self, from: data)
    }

    /// Removes the progress hint of a recording that has ended.
    public func endProgress(id: String) {
        FileSystem.removeQuietly(progressPath(id))
    }

    private func remove(_ entry: Entry) {
        endProgress(id: entry.id)
        FileSystem.removeQuietly(directory + "/" + entry.id + ".json", entry.lockPath, entry.ownControlPath, savingPath(entry.id))
    }
}
