import Foundation
import Glibc
import Synchronization
import Testing
import VidrecCore
import VidrecMedia
import VidrecSystem

/// A sound recording (`--camera none`) through the `Recorder`, in process: the real
/// `NoCamera` ticks on CLOCK_MONOTONIC, and a scripted microphone delivers from when it
/// is started on the same clock, so the session places the sound as it does a real
/// microphone's.
@Suite struct SoundRecordingTests {
    let state: TemporaryDirectory
    let store: RecordingStore

    init() throws {
        state = try TemporaryDirectory()
        store = try RecordingStore(stateDirectory: state.path + "/state")
    }

    func recorder(_ devices: ScriptedDevices) -> Recorder {
        Recorder(store: store, devices: devices, outputs: devices,
                 saver: AlbumSaver(store: store, manifest: AlbumManifest(stateDirectory: state.path + "/state"), finalizer: RenameOnly()),
                 freeSpace: { _ in nil })
    }

    func request(max seconds: String, mode: RecordingMode = .singleFile, preset: Preset = ScriptedDevices.preset()) -> RecordingRequest {
        var request = RecordingRequest(preset: preset, maxDuration: DurationLimit(parsing: seconds), pid: getpid())
        request.mode = mode
        return request
    }

    /// The audio frames a scripted output wrote.
    func audio(_ path: String) throws -> Int64 {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("audio ") }
            .reduce(0) { $0 + Int64($1.dropFirst(6))! }
    }

    @Test func aSoundRecordingEndsAtItsLimitToTheSampleWithNoFramesInItsSidecar() throws {
        let sources = Mutex<[String]>([])
        let report = try recorder(ScriptedDevices(frames: 90, soundOnly: true)).record(request(max: "2")) { event in
            if case .started(_, _, _, let names, _) = event { sources.withLock { $0 = names } }
        }
        #expect(report.endedWell && report.isAudioOnly)
        #expect(report.frameRate == NoCamera.tickRate)
        #expect(sources.withLock { $0 } == ["no camera (sound only)", "scripted microphone"])
        #expect(report.outcome.duration == Rational(2))
        #expect(report.outcome.insertedSilence == 0 && report.outcome.droppedAudio == 0)
        let entry = try store.entry(id: report.id)
        #expect(try audio(entry.mediaPath) == 2 * 48000, "exactly 2 s at 48 kHz")
        #expect(entry.sidecar.duration == 2)
        #expect(entry.sidecar.videoFrames == nil && entry.sidecar.droppedFrames == nil && entry.sidecar.frameRate == nil)
    }

    @Test func aSegmentedSoundRecordingIsCutOnTicksAndKeepsEverySample() throws {
        let series = FileSeries()
        let report = try recorder(ScriptedDevices(frames: 120, soundOnly: true))
            .record(request(max: "3", mode: .segments(SegmentSettings(seconds: Rational(1)), series)))
        #expect(report.endedWell && report.segments.count == 3)
        // The segments are cut on the tick grid, 50 ticks a second (the scripted series
        // output writes a line per tick; the real encoder cuts the sound at each
        // segment's first sample, which the end-to-end tests check), and none of the
        // sound is lost.
        let files = try report.segments.map { try String(contentsOfFile: try store.entry(id: $0).mediaPath, encoding: .utf8) }
        let ticks = files.map { $0.split(separator: "\n").filter { $0.hasPrefix("video ") }.map { Int64($0.dropFirst(6))! } }
        #expect(ticks == [Array(0..<50), Array(50..<100), Array(100..<150)])
        #expect(try report.segments.map { try audio(try store.entry(id: $0).mediaPath) }.reduce(0, +) == 3 * 48000)
    }

    @Test func aSoundRecordingWithoutAudioIsRefusedAndLeavesNothingPending() throws {
        var preset = ScriptedDevices.preset()
        preset.settings.audio = nil
        #expect(throws: RecorderError.nothingToRecord) {
            _ = try recorder(ScriptedDevices(soundOnly: true)).record(request(max: "1", preset: preset))
        }
        #expect(store.list().isEmpty)
    }

    @Test func aFeatureThatNeedsAPictureIsRefusedBeforeAnythingIsRecorded() throws {
        var request = request(max: "1")
        request.features = [IntervalPhotos(every: Rational(1), encoder: IntervalPhotosTests.SlotEncoder(), save: nil)]
        #expect(throws: RecorderError.self) {
            _ = try recorder(ScriptedDevices(soundOnly: true)).record(request)
        }
        #expect(store.list().isEmpty, "nothing is left pending")
    }
}
