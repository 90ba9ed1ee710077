import Foundation
import Glibc
import Synchronization
import Testing
import VidrecCore
import VidrecMedia
import VidrecSystem

/// `--snap-every` in process, through the ``Recorder`` as `vidrec start` drives it: which
/// frames become photos, where they go, what the end report says, and that the movie
/// loses nothing for them.
@Suite struct IntervalPhotosTests {
    let state: TemporaryDirectory
    let store: RecordingStore
    let manifest: AlbumManifest

    init() throws {
        state = try TemporaryDirectory()
        store = try RecordingStore(stateDirectory: state.path + "/state")
        manifest = AlbumManifest(stateDirectory: state.path + "/state")
    }

    /// Writes the slot number the scripted camera put in the frame's first byte, as text.
    final class SlotEncoder: PhotoEncoding {
        let fails: Bool
        init(fails: Bool = false) { self.fails = fails }
        func jpeg(of frame: VideoFrame, width: Int?) throws -> EncodedPhoto {
            if fails { throw SystemError("write", "photo", errno: ENOSPC) }
            return EncodedPhoto(bytes: Array("slot \(frame.buffer.bytes.load(as: UInt8.self))".utf8), width: frame.width, height: frame.height)
        }
    }

    /// When the recordings start: half a second past a whole second, so that each
    /// photo's date says which second of the movie it is from.
    static let start = Date(timeIntervalSince1970: 1_800_000_000.5)

    func record(frames: Int64, feature: IntervalPhotos, save: SaveRequest? = nil) throws -> RecordingReport {
        let devices = ScriptedDevices(frames: frames, realTime: true)
        let recorder = Recorder(store: store, devices: devices, outputs: devices,
                                saver: AlbumSaver(store: store, manifest: manifest, finalizer: RenameOnly()),
                                freeSpace: { _ in nil })
        var request = RecordingRequest(preset: ScriptedDevices.preset(), maxDuration: DurationLimit(parsing: "\(frames / 30)"),
                                       save: save, startTime: Self.start, pid: getpid())
        request.features = [feature]
        return try recorder.record(request)
    }

    /// The slot a kept photo was taken from.
    func slot(of path: String) throws -> Int64 {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try #require(Int64(text.dropFirst("slot ".count)), "\(text)")
    }

    @Test func aPhotoIsTakenInEveryIntervalKeptPendingAndDatedByItsPlaceInTheMovie() throws {
        let report = try record(frames: 90, feature: IntervalPhotos(every: Rational(1), encoder: SlotEncoder(), save: nil))
        #expect(report.endedWell)
        #expect(report.outcome.droppedFrames + report.outcome.queueDroppedFrames == 0)
        let photos = store.list().filter(\.isPhoto).sorted { ($0.sidecar.startTime, $0.id) < ($1.sidecar.startTime, $1.id) }
        // The first once the exposure has settled, then one at each whole second.
        let slots = try photos.map { try slot(of: $0.mediaPath) }
        #expect(slots.count == 3, "\(slots)")
        for (slot, due) in zip(slots, [Int64(StillCapture.settleFrames), 30, 60]) {
            #expect(slot >= due && slot < due + 30, "slot \(slot) for the photo due at \(due)")
        }
        for (photo, slot) in zip(photos, slots) {
            #expect(photo.state == .finished && photo.sidecar.container == .jpeg)
            #expect(photo.sidecar.photoSize == "2x2")
            #expect(photo.sidecar.endReason == "taken every 1 s during recording \(report.id)")
            #expect(photo.sidecar.startTime == DateText.iso8601(Self.start.addingTimeInterval(Double(slot) / 30)))
        }
        #expect(report.featureLines == ["3 photos taken every 1 s, pending (\(photos[0].id) to \(photos[2].id)); keep them with 'vidrec save ID'"])
    }

    @Test func savedPhotosGoToTheirAlbumAndNeverPushAMovieOutOfTheSameFolder() throws {
        // Movies and photos in one folder, the album keeping one movie.
        let album = Album(path: state.path + "/album")
        let saved = Mutex<[String]>([])
        var movies: [String] = []
        for _ in 0..<2 {
            let feature = IntervalPhotos(every: Rational(1), encoder: SlotEncoder(), save: SaveRequest(album: album, keep: 1),
                                         saved: { path in saved.withLock { $0.append(path) } })
            let report = try record(frames: 60, feature: feature, save: SaveRequest(album: album, keep: 1))
            #expect(report.endedWell && report.featureLines == ["2 photos taken every 1 s, 2 saved"])
            movies.append(try #require(report.savedPath))
        }
        let photos = saved.withLock { $0 }
        #expect(photos.count == 4 && photos.allSatisfy { $0.hasPrefix(album.path + "/") && $0.hasSuffix(".jpg") })
        // The second movie pushed the first out; the photos pushed only photos out.
        let inAlbum = Set(try FileManager.default.contentsOfDirectory(atPath: album.path).filter { !$0.hasPrefix(".") })
        #expect(inAlbum == Set([movies[1], photos[3]].map { ($0 as NSString).lastPathComponent }))
        #expect(store.list().isEmpty)
    }

    @Test func aPhotoThatCannotBeKeptIsReportedAndTheMovieGoesOnWhole() throws {
        let warnings = Mutex<[String]>([])
        let feature = IntervalPhotos(every: Rational(1), encoder: SlotEncoder(fails: true), save: nil,
                                     warn: { line in warnings.withLock { $0.append(line) } })
        let report = try record(frames: 60, feature: feature)
        #expect(report.endedWell && report.outcome.videoFrames == 60)
        #expect(report.outcome.droppedFrames + report.outcome.queueDroppedFrames == 0)
        #expect(store.list().filter(\.isPhoto).isEmpty)
        #expect(warnings.withLock { $0.count } == 1, "said once")
        #expect(report.featureLines.count == 1 && report.featureLines[0].hasPrefix("2 photos every 1 s could not be kept: "),
                "\(report.featureLines)")
    }
}
