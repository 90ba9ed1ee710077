import Foundation
import Glibc
import VidrecMedia

/// The pending area: recordings that have been made but not yet saved to the album,
/// each as a media file plus a JSON sidecar, like the temporary movie file that
/// `UIImagePickerController` hands over before it is saved to the Camera Roll.
///
/// Layout under `<state>/pending` (mode 0700): `ID.partial.EXT` while recording,
/// `ID.EXT` once finalized, `ID.json` (the sidecar), `ID.lock` (held while recording),
/// `ID.sock` (the running recording's control socket). Still photos (`vidrec snap`)
/// are kept the same way, as `ID.jpg`.
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
        /// `ID.sock`.
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

    /// Whether `name` can be saved under: a plain file name, not hidden, not too long.
    /// `--as` and the save step check with this.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty && !name.contains("/") && !name.hasPrefix(".") && !name.contains("\0")
            && name.utf8.count <= maximumNameBytes
    }

    /// Whether `name` can be saved under inside the album, with folders: a file name
    /// (``isValidName(_:)``) after any number of folder names that are valid names too
    /// (`2026/11/30/door-120000`, from `--name '%Y/%m/%d/door-%H%M%S'`).
    public static func isValidAlbumPath(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        return parts.count <= 16 && parts.allSatisfy(isValidName)
    }

    /// Opens the pending area under `stateDirectory`, creating it with mode 0700.
    ///
    /// - Throws: ``StoreError/cannotWrite(path:reason:)`` when it cannot be created.
    public init(stateDirectory: String) throws {
        directory = stateDirectory + "/pending"
        do {
            try Directories.create(stateDirectory, mode: 0o700)
            try Directories.create(directory, mode: 0o700)
        } catch {
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

    /// Every pending recording, oldest first. Sidecars that cannot be read are skipped,
    /// and so are sidecars whose media is gone (a save that finished moving the file
    /// but was killed before removing the sidecar); those are removed.
    public func list() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var entries: [Entry] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let path = directory + "/" + name
            guard let data = FileManager.default.contents(atPath: path),
                  let sidecar = try? JSONDecoder().decode(RecordingSidecar.self, from: data),
                  sidecar.id + ".json" == name
            else { continue }
            let entry = entry(for: sidecar)
            if entry.state == .interrupted {
                // A crashed recording's lock file: nobody holds it any more.
                FileSystem.removeQuietly(entry.lockPath)
            }
            let exists = FileManager.default.fileExists(atPath: entry.mediaPath)
                || FileManager.default.fileExists(atPath: entry.partialPath)
            if !exists && entry.state != .recording {
                remove(entry)
                continue
            }
            entries.append(entry)
        }
        return entries
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

    /// Recordings being written now, one for each recording process: a continuous
    /// recording may have two segments open for a moment; the newer one stands for it.
    public func runningRecordings() -> [Entry] {
        var newest: [Int32: Entry] = [:]
        for entry in running() where !entry.isPhoto { newest[entry.sidecar.pid] = entry }
        return newest.values.sorted { $0.id < $1.id }
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
    /// recording either pending or in the album, whole.
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
        let saved = try target.add(entry.mediaPath, name: base, extension: ext)
        remove(entry)
        return saved
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

    /// Records how far a running recording has come, for `vidrec status`: `ID.progress`,
    /// replaced (write, rename) twice a second and never synced, since it is only a hint.
    public func writeProgress(_ progress: SessionProgress, id: String) {
        guard let data = try? JSONEncoder().encode(progress) else { return }
        try? AtomicFile.write(data, to: directory + "/" + id + ".progress", durable: false)
    }

    /// How far a running recording has come, as it last said.
    public func progress(of entry: Entry) -> SessionProgress? {
        guard let data = FileManager.default.contents(atPath: directory + "/" + entry.id + ".progress") else { return nil }
        return try? JSONDecoder().decode(SessionProgress.self, from: data)
    }

    /// Removes the progress hint of a recording that has ended.
    public func endProgress(id: String) {
        FileSystem.removeQuietly(directory + "/" + id + ".progress")
    }

    private func remove(_ entry: Entry) {
        endProgress(id: entry.id)
        FileSystem.removeQuietly(directory + "/" + entry.id + ".json", entry.lockPath, entry.ownControlPath)
    }
}
