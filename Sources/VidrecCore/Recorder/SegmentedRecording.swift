import Foundation
import Synchronization
import VidrecMedia
import VidrecSystem

/// The pending area's side of a continuous recording (`--segment`): every segment is a
/// recording of its own in the pending area, created and locked when its file opens,
/// and, when it closes, indexed, marked finished and unlocked, then (with `--save`)
/// committed to the album. A `kill -9` leaves every closed segment whole and the open
/// one interrupted, which `vidrec recover` or `vidrec save` finishes.
///
/// The first segment is the recording the ``Recorder`` created; the later ones copy its
/// sidecar (preset, sources, the control socket) with their own ID, start and name.
final class SegmentedRecording: SegmentSink, Sendable {
    private struct Open {
        var entry: RecordingStore.Entry
        var lock: RecordingLock
    }

    private let store: RecordingStore
    private let saver: AlbumSaver
    private let save: SaveRequest?
    /// What the files of a series are, as each one's sidecar says.
    enum Files: Sendable {
        /// The segments of a continuous recording (`--segment`).
        case segments
        /// The events of a recording that waits for triggers (`--pre/--post`).
        case events
        /// The events written beside a continuous recording's segments.
        case eventsBesideSegments

        /// The end reason of file `index` (from 0) in its sidecar.
        func endReason(_ index: Int) -> String {
            switch self {
            case .segments: "segment \(index + 1) of a continuous recording"
            case .events: "event \(index + 1) of a recording waiting for triggers"
            case .eventsBesideSegments: "event \(index + 1) beside a continuous recording's segments"
            }
        }
    }

    private let series: FileSeries
    private let files: Files
    private let startTime: Date
    private let metadata: @Sendable (Date, String?) -> [String: String]
    private let sidecar: @Sendable () -> RecordingSidecar
    private let open: Mutex<[Int: Open]>
    private let closedIDs = Mutex<[String]>([])
    /// The recording's control socket, which every segment names.
    private let firstSocket: String

    /// - Parameters:
    ///   - files: what the files are: segments or events.
    ///   - first: the recording as the ``Recorder`` created it, and its lock, which the
    ///     first segment takes over; with no lock (events), the recording stays the
    ///     ``Recorder``'s (or its first segment's), and every event is a new pending
    ///     recording.
    ///   - metadata: the tags for a segment starting at a time, with its name.
    ///   - sidecar: the recording's sidecar as it stands (a camera switch changes it).
    init(store: RecordingStore, saver: AlbumSaver, save: SaveRequest?, series: FileSeries, files: Files,
         first: RecordingStore.Entry, lock: RecordingLock?, startTime: Date,
         metadata: @escaping @Sendable (Date, String?) -> [String: String],
         sidecar: @escaping @Sendable () -> RecordingSidecar) {
        self.store = store
        self.saver = saver
        self.save = save
        self.series = series
        self.files = files
        self.startTime = startTime
        self.metadata = metadata
        self.sidecar = sidecar
        open = Mutex(lock.map { [0: Open(entry: first, lock: $0)] } ?? [:])
        firstSocket = first.controlPath
    }

    /// The newest segment's ID: the one `vidrec status` follows.
    var currentID: String {
        open.withLock { $0.max { $0.key < $1.key }?.value.entry.id } ?? closedIDs.withLock { $0.last } ?? ""
    }

    /// The IDs of the segments closed so far, in order.
    var closed: [String] { closedIDs.withLock { $0 } }

    /// Makes room at the `--min-free` floor: removes the oldest segment vidrec made,
    /// from the album with `--save` (vidrec's own saved recordings there, never the
    /// newest; only when the album is on the disk being filled) or else from this
    /// recording's closed pending segments (never the newest closed one, never the open
    /// one), and says so.
    ///
    /// - Returns: whether something was removed.
    func reclaimOldest() -> Bool {
        var removed: String?
        if let save {
            // Only an album on the disk being filled gives room back.
            guard let pending = try? FileSystem.status(store.directory), let album = try? FileSystem.status(save.album.path),
                  pending.st_dev == album.st_dev else { return false }
            removed = saver.removeOldest(from: save.album)
        } else {
            let candidates = closedIDs.withLock { Array($0.dropLast()) }
            for id in candidates {
                guard let entry = try? store.entry(id: id), entry.state != .recording else { continue }
                let path = FileManager.default.fileExists(atPath: entry.mediaPath) ? entry.mediaPath : entry.partialPath
                if (try? store.discard(entry)) != nil {
                    removed = path
                    break
                }
            }
        }
        guard let removed else { return false }
        series.reclaimed(removed)
        return true
    }

    func openSegment(_ index: Int, startingAt seconds: Double) throws -> (path: String, metadata: [String: String]) {
        let date = startTime.addingTimeInterval(seconds)
        let name = series.name?(date)
        if let first = open.withLock({ $0[index] }) {
            series.opened(index, first.entry.id, date)
            return (first.entry.partialPath, metadata(date, first.entry.sidecar.saveName))
        }
        let template = sidecar()
        let (entry, lock) = try store.create(at: date) { [firstSocket] id in
            var made = template
            made.id = id
            made.startTime = DateText.iso8601(date)
            made.state = .recording
            made.saveName = name
            made.segment = index
            made.controlSocket = firstSocket
            made.duration = nil
            return made
        }
        open.withLock { $0[index] = Open(entry: entry, lock: lock) }
        series.opened(index, entry.id, date)
        return (entry.partialPath, metadata(date, name))
    }

    func closeSegment(_ index: Int, path: String, failure: (any Error)?) throws {
        guard let segment = open.withLock({ $0.removeValue(forKey: index) }) else { return }
        let entry = segment.entry
        store.endProgress(id: entry.id)
        var report = SegmentReport(index: index, id: entry.id)
        var finalized = true
        do {
            report.duration = try store.finalize(entry, with: saver.finalizer, trimToCommonEnd: failure != nil)
        } catch {
            finalized = false
            report.problem = "could not be finalized (\(error)); it is kept pending as interrupted"
        }
        var sidecar = entry.sidecar
        sidecar.state = !finalized ? .interrupted : failure == nil ? .finished : .failed
        sidecar.duration = report.duration
        sidecar.endReason = failure.map { "failed: \($0)" }
            ?? files.endReason(index)
        if let failure, report.problem == nil { report.problem = "\(failure)" }
        let written = (try? store.write(sidecar)) != nil
        if finalized && written { FileSystem.removeQuietly(entry.lockPath) }
        withExtendedLifetime(segment.lock) {}
        closedIDs.withLock { $0.append(entry.id) }
        if let save, finalized, failure == nil {
            do {
                (report.savedPath, report.removedFromAlbum) = try saver.save(store.entry(id: entry.id), to: save)
            } catch {
                report.problem = "could not be saved (\(error)); it is kept pending"
            }
        }
        series.closed(report)
    }
}
