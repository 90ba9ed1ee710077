import Foundation
import Glibc
import Synchronization
import Testing
import VidrecCore
import VidrecMedia

/// The recording modes in process, through the ``Recorder`` as `vidrec start` drives it
/// with scripted devices: a continuous recording in segments, and one that waits for
/// triggers (by hand, or by a motion detector), each file a pending recording of its own.
@Suite struct RecordingModeTests {
    let state: TemporaryDirectory
    let store: RecordingStore
    let album: Album

    init() throws {
        state = try TemporaryDirectory()
        store = try RecordingStore(stateDirectory: state.path + "/state")
        album = Album(path: state.path + "/album")
    }

    func recorder(_ devices: ScriptedDevices) -> Recorder {
        Recorder(store: store, devices: devices, outputs: devices,
                 saver: AlbumSaver(store: store, manifest: AlbumManifest(stateDirectory: state.path + "/state"), finalizer: RenameOnly()),
                 freeSpace: { _ in nil })
    }

    func request(_ mode: RecordingMode, max seconds: String = "3", save: SaveRequest? = nil) -> RecordingRequest {
        var request = RecordingRequest(preset: ScriptedDevices.preset(), maxDuration: DurationLimit(parsing: seconds), save: save, pid: getpid())
        request.mode = mode
        return request
    }

    /// The slots and audio frames a scripted series file holds.
    func contents(_ path: String) throws -> (slots: [Int64], audio: Int64) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        return (lines.filter { $0.hasPrefix("video ") }.map { Int64($0.dropFirst(6))! },
                lines.filter { $0.hasPrefix("audio ") }.reduce(0) { $0 + Int64($1.dropFirst(6))! })
    }

    @Test func aContinuousRecordingSavesEachSegmentAsItClosesWithNoFrameLostBetweenThem() throws {
        let closed = Mutex<[SegmentReport]>([])
        let series = FileSeries(closed: { report in closed.withLock { $0.append(report) } })
        let report = try recorder(ScriptedDevices(frames: 90)).record(
            request(.segments(SegmentSettings(seconds: Rational(1)), series), save: SaveRequest(album: album)))
        #expect(report.endedWell && report.segments.count == 3)
        #expect(report.outcome.droppedFrames + report.outcome.queueDroppedFrames == 0)
        let reports = closed.withLock { $0 }
        #expect(reports.map(\.index) == [0, 1, 2] && reports.map(\.id) == report.segments)
        let saved = try reports.map { try #require($0.savedPath) }
        #expect(saved.allSatisfy { $0.hasPrefix(album.path + "/") })
        // Each segment holds its second of slots; together, all of the audio.
        let files = try saved.map(contents)
        #expect(files.map(\.slots) == [Array(0..<30), Array(30..<60), Array(60..<90)])
        #expect(files.reduce(0) { $0 + $1.audio } == 3 * 48000)
        #expect(store.list().isEmpty, "every segment was saved")
    }

    @Test func unsavedSegmentsArePendingRecordingsAndTheLastSaysHowTheRecordingEnded() throws {
        let report = try recorder(ScriptedDevices(frames: 90)).record(
            request(.segments(SegmentSettings(seconds: Rational(1)), FileSeries())))
        #expect(report.endedWell && report.segments.count == 3)
        let entries = try report.segments.map { try store.entry(id: $0) }
        #expect(entries.map(\.state) == [.finished, .finished, .finished])
        #expect(entries.map(\.sidecar.segment) == [0, 1, 2])
        #expect(entries.dropLast().map(\.sidecar.endReason) == ["segment 1 of a continuous recording", "segment 2 of a continuous recording"])
        #expect(entries.last?.sidecar.endReason == "reached maximum duration (3 s)")
        #expect(store.list().count == 3, "the recording's own entry became the first segment")
    }

    @Test func aTriggerWritesAnEventWithWhatWasKeptFromBeforeIt() throws {
        let devices = ScriptedDevices(frames: 90, realTime: true)
        let recorder = recorder(devices)
        var triggered = false
        let report = try recorder.record(request(.events(EventSettings(pre: 0.5, post: 0.5), FileSeries()))) { event in
            // The first trigger comes with the first progress report, about 15 frames in.
            guard case .progress = event, !triggered else { return }
            triggered = recorder.trigger()
        }
        #expect(triggered && report.endedWell && report.segments.count == 1)
        #expect(report.outcome.droppedFrames + report.outcome.queueDroppedFrames == 0)
        let event = try store.entry(id: report.segments[0])
        let slots = try contents(event.mediaPath).slots
        // Up to half a second from before the trigger, and half a second after it.
        #expect(slots == Array(slots[0]..<(slots[0] + Int64(slots.count))), "\(slots)")
        #expect(slots.count > 15 && slots.count <= 30, "\(slots)")
        #expect(event.state == .finished && event.sidecar.endReason == "reached maximum duration (3 s)")
        #expect(store.list().map(\.id) == [event.id], "the recording waiting for triggers leaves only its event")
        #expect(!recorder.trigger(), "nothing waits for triggers once the recording has ended")
    }

    /// A motion detector that sees motion from a given slot on.
    final class MotionFrom: CaptureOutput {
        let outputName = "motion"
        let bytesWritten: Int64 = 0
        let slot: Int64
        let onMotion: @Sendable (Double) -> Void
        init(slot: Int64, onMotion: @escaping @Sendable (Double) -> Void) {
            self.slot = slot
            self.onMotion = onMotion
        }
        func appendVideo(_ frame: VideoFrame, frameIndex: Int64) throws { if frameIndex >= slot { onMotion(10) } }
        func appendAudio(_ chunk: AudioChunk) throws {}
        func finish() throws {}
    }

    @Test func motionTriggersTheRecordingThroughItsFeature() throws {
        var request = request(.events(EventSettings(pre: 0.5, post: 0.5), FileSeries()), max: "2")
        request.features = [MotionTrigger(threshold: 6) { _, onMotion in MotionFrom(slot: 45, onMotion: onMotion) }]
        let report = try recorder(ScriptedDevices(frames: 60, realTime: true)).record(request)
        #expect(report.endedWell && report.segments.count == 1)
        let slots = try contents(try store.entry(id: report.segments[0]).mediaPath).slots
        // Motion from slot 45 on: the event starts with the half second kept before it
        // and lasts to the end.
        #expect(slots.first.map { $0 >= 30 && $0 <= 45 } == true && slots.last == 59, "\(slots)")
    }
}
