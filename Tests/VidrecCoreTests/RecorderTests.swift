import Foundation
import Glibc
import Synchronization
import Testing
import VidrecCore
import VidrecMedia
import VidrecSystem

/// The recording use case, driven as `vidrec start` drives it, with scripted devices:
/// from the request to the pending area, the sidecar and the album.
@Suite struct RecorderTests {
    let state: TemporaryDirectory
    let store: RecordingStore
    let albumPath: String

    init() throws {
        state = try TemporaryDirectory()
        store = try RecordingStore(stateDirectory: state.path + "/state")
        albumPath = state.path + "/album"
    }

    func recorder(_ devices: ScriptedDevices, free: Int64? = nil) -> Recorder {
        Recorder(store: store, devices: devices, outputs: devices,
                 saver: AlbumSaver(store: store, manifest: AlbumManifest(stateDirectory: state.path + "/state"), finalizer: RenameOnly()),
                 freeSpace: { _ in free })
    }

    func request(max seconds: String? = "2", save: SaveRequest? = nil, minFree: Int64? = nil) -> RecordingRequest {
        RecordingRequest(preset: ScriptedDevices.preset(), maxDuration: seconds.flatMap { DurationLimit(parsing: $0) },
                         minFreeSpace: minFree, save: save, pid: getpid())
    }

    /// The lines the scripted output wrote: video frame indexes and audio frames.
    func contents(_ path: String) throws -> (frames: [Int64], audio: Int64) {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let frames = lines.filter { $0.hasPrefix("video ") }.map { Int64($0.split(separator: " ")[1])! }
        let audio = lines.filter { $0.hasPrefix("audio ") }.reduce(Int64(0)) { $0 + Int64($1.dropFirst(6))! }
        return (frames, audio)
    }

    /// The video lines the scripted output wrote: each frame's slot, and the number the
    /// scripted camera gave it.
    func lines(_ path: String) throws -> [(slot: Int64, camera: Int64)] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("video ") }.map { line in
            let fields = line.split(separator: " ")
            return (Int64(fields[1])!, Int64(fields[2])!)
        }
    }

    /// Every one of `count` frames was written, in order: the scripted camera delivers at
    /// its frame rate, so no queue can overflow and nothing may be dropped.
    func expectEveryFrame(_ frames: [Int64], of count: Int64, dropped: Int64,
                          sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(dropped == 0 && frames == Array(0..<count), "\(frames.count) written, \(dropped) dropped", sourceLocation: sourceLocation)
    }

    @Test func aRecordingEndsAtItsLimitIsFinalizedAndItsSidecarSaysHowItEnded() throws {
        var events: [String] = []
        let report = try recorder(ScriptedDevices(cameraPath: "/dev/video9")).record(request()) { event in
            switch event {
            case .started(let id, _, _, let sources, _): events.append("started \(id) \(sources.joined(separator: "+"))")
            case .progress: break
            case .reconnection: events.append("reconnection")
            case .ended: events.append("ended")
            }
        }
        #expect(report.endedWell && report.savedPath == nil)
        #expect(events == ["started \(report.id) scripted camera+scripted microphone", "ended"])
        let entry = try store.entry(id: report.id)
        #expect(entry.state == .finished)
        let dropped = try #require(entry.sidecar.droppedFrames)
        #expect(entry.sidecar.duration == 2 && entry.sidecar.videoFrames == 60 - dropped)
        #expect(entry.sidecar.cameraPath == "/dev/video9" && entry.sidecar.cameraMode == "2x2 YUYV 30 fps")
        #expect(entry.sidecar.endReason == "reached maximum duration (2 s)")
        #expect(!FileManager.default.fileExists(atPath: entry.lockPath) && !FileManager.default.fileExists(atPath: entry.partialPath))
        let written = try contents(entry.mediaPath)
        expectEveryFrame(written.frames, of: 60, dropped: dropped)
        #expect(written.audio == 2 * 48000)
    }

    @Test func aRecordingThatEndsWellIsSavedAndTheAlbumKeepsOnlyTheNewest() throws {
        let save = SaveRequest(album: Album(path: albumPath), keep: 1)
        let first = try recorder(ScriptedDevices()).record(request(save: save))
        let second = try recorder(ScriptedDevices()).record(request(save: save))
        let firstPath = try #require(first.savedPath)
        let secondPath = try #require(second.savedPath)
        #expect(second.removedFromAlbum == [firstPath])
        #expect(try FileManager.default.contentsOfDirectory(atPath: albumPath) == [(secondPath as NSString).lastPathComponent])
        expectEveryFrame(try contents(secondPath).frames, of: 60, dropped: second.outcome.droppedFrames + second.outcome.queueDroppedFrames)
        #expect(store.list().isEmpty)
    }

    @Test func aRecordingWhoseCameraVanishedIsKeptPendingAsFailedAndNotSaved() throws {
        struct Unplugged: Error {}
        let devices = ScriptedDevices(frames: 45, ending: .some(Unplugged()))
        let report = try recorder(devices).record(request(max: nil, save: SaveRequest(album: Album(path: albumPath))))
        #expect(!report.endedWell && report.savedPath == nil && report.outcome.error != nil)
        let entry = try store.entry(id: report.id)
        #expect(entry.state == .failed)
        let written = try contents(entry.mediaPath)
        expectEveryFrame(written.frames, of: 45, dropped: report.outcome.droppedFrames + report.outcome.queueDroppedFrames)
        #expect(written.audio == 45 * 48000 / 30)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: albumPath))?.isEmpty ?? true)
    }

    @Test func aSecondRecordingFromABusyCameraIsRefusedBeforeAnythingIsOpened() throws {
        let (running, lock) = try store.create(at: Date()) { id in
            var sidecar = RecordingSidecar(id: id, preset: "low", presetFile: "/p", camera: "cam", microphone: nil,
                                           container: .mkv, startTime: Date(), pid: getpid(), maxDuration: nil)
            sidecar.cameraPath = "/dev/video9"
            return sidecar
        }
        #expect(throws: RecorderError.cameraBusy(path: "/dev/video9", id: running.id, pid: getpid(), since: running.sidecar.startTime)) {
            try recorder(ScriptedDevices(cameraPath: "/dev/video9")).record(request())
        }
        // Another camera is free.
        #expect(try recorder(ScriptedDevices(cameraPath: "/dev/video8")).record(request()).endedWell)
        withExtendedLifetime(lock) {}
    }

    @Test func belowTheFreeSpaceFloorNothingIsRecorded() throws {
        #expect(throws: RecorderError.lowDiskSpace(directory: store.directory, free: 1_000, floor: 200_000)) {
            try recorder(ScriptedDevices(), free: 1_000).record(request(minFree: 200_000))
        }
        #expect(store.list().isEmpty)
    }

    @Test func anOutputThatCannotBeCreatedLeavesNothingPending() throws {
        #expect(throws: SystemError.self) {
            try recorder(ScriptedDevices(failOutput: true)).record(request())
        }
        #expect(store.list().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).filter { !$0.hasPrefix(".") }.isEmpty)
    }

    @Test func aCameraThatCannotStartLeavesNothingPending() throws {
        struct NoStream: Error {}
        #expect(throws: NoStream.self) {
            try recorder(ScriptedDevices(cameraStartError: NoStream())).record(request())
        }
        #expect(store.list().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).filter { !$0.hasPrefix(".") }.isEmpty)
    }

    @Test func aStopAskedForWhileRecordingEndsTheMovieWithBothStreamsTogether() throws {
        // The camera delivers nothing after its script, so only the stop ends it; the
        // stop comes with the first progress report that counts all its frames.
        let recorder = recorder(ScriptedDevices(frames: 50))
        let report = try recorder.record(request(max: nil)) { event in
            if case .progress(let progress) = event, progress.videoFrames == 50 { recorder.requestStop() }
        }
        #expect(report.endedWell && report.outcome.reason == .stopped)
        let written = try contents(try store.entry(id: report.id).mediaPath)
        expectEveryFrame(written.frames, of: 50, dropped: report.outcome.droppedFrames + report.outcome.queueDroppedFrames)
        #expect(written.audio == 50 * 48000 / 30)
    }

    @Test func aStopBeforeTheFirstFrameLeavesNothingPendingAndSavesNothing() throws {
        // The camera delivers no frame at all; the stop comes as the recording starts.
        let recorder = recorder(ScriptedDevices(frames: 0))
        let save = SaveRequest(album: Album(path: albumPath))
        let report = try recorder.record(request(max: nil, save: save)) { event in
            if case .started = event { recorder.requestStop() }
        }
        #expect(report.nothingRecorded && report.outcome.videoFrames == 0 && report.outcome.error == nil)
        #expect(report.savedPath == nil)
        #expect(store.list().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directory).filter { !$0.hasPrefix(".") }.isEmpty)
    }

    @Test func aPausedRecordingLeavesOutWhatCameInTheMeantimeAndItsMovieHasNoGap() throws {
        // A camera at its frame rate with more frames than the recording can take
        // however long the pause lasts on a busy machine (the session stops it at the
        // limit); the recording lasts 3 s of movie, paused once for two progress reports.
        let recorder = recorder(ScriptedDevices(frames: 250, realTime: true))
        var seen: [Bool] = []
        var pausedAt: Int64?
        var resumed = false
        let report = try recorder.record(request(max: "3")) { event in
            guard case .progress(let progress) = event else { return }
            seen.append(progress.isPaused)
            if pausedAt == nil, progress.videoFrames >= 30 {
                pausedAt = progress.videoFrames
                #expect((try? recorder.pause()) == true)
                #expect((try? recorder.pause()) == false, "already paused")
            } else if pausedAt != nil, !resumed, seen.suffix(2) == [true, true] {
                resumed = true
                #expect((try? recorder.resume()) == true)
            }
        }
        #expect(report.endedWell && report.outcome.reason == .maximumDuration(DurationLimit(parsing: "3")!))
        #expect(seen.contains(true) && seen.last == false, "\(seen)")
        // Every slot of the 3 s, none dropped, though more than 3 s of frames came.
        #expect(report.outcome.droppedFrames + report.outcome.queueDroppedFrames == 0)
        let written = try lines(try store.entry(id: report.id).mediaPath)
        #expect(written.map(\.slot) == Array(0..<90))
        // The camera's own frame numbers jump once, where the pause was, by exactly the
        // frames left out (how many depends on how busy the machine is).
        let jumps = zip(written.dropFirst(), written).map { $0.camera - $1.camera }
        #expect(report.outcome.pausedFrames > 0)
        #expect(jumps.filter { $0 != 1 }.count == 1 && jumps.max() == report.outcome.pausedFrames + 1, "\(jumps)")
        #expect(try contents(try store.entry(id: report.id).mediaPath).audio == 3 * 48000)
        #expect(throws: CaptureSessionError.self) { try recorder.resume() }
    }

    @Test func aCamerasOwnH264StoredAsItIsCannotBePausedAndRecordsOn() throws {
        let recorder = recorder(ScriptedDevices(frames: 60))
        var request = request(max: "2")
        request.preset.settings.video.copied = CopiedStream(format: .h264, header: [])
        var refused: (any Error)?
        let report = try recorder.record(request) { event in
            guard case .started = event else { return }
            do { _ = try recorder.pause() } catch { refused = error }
        }
        #expect(refused as? RecorderError == .copiedStreamCannotPause("scripted camera"))
        #expect(report.endedWell && report.outcome.videoFrames + report.outcome.droppedFrames + report.outcome.queueDroppedFrames == 60)
    }

    @Test func aCameraSwitchedToGoesOnInTheSameMovieWithNoEmptySlot() throws {
        let recorder = recorder(ScriptedDevices(cameraPath: "/dev/video9", frames: 150))
        let switched = Mutex<Result<CameraUse, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        var asked = false
        let report = try recorder.record(request(max: "3")) { event in
            guard case .progress(let progress) = event, !asked, progress.videoFrames >= 30 else { return }
            asked = true
            // The second camera's frames are captured from a few slots on. The switch
            // waits for the session, so it is asked from another thread.
            let start = ScriptedDevices.start + (progress.videoFrames + 5) * 1_000_000_000 / 30
            let other = ScriptedDevices(cameraPath: "/dev/video8", frames: 150, microphone: false, cameraStart: start)
            Thread {
                let result = Result { try recorder.switchCamera(to: other) }
                switched.withLock { $0 = result }
                done.signal()
            }.start()
        }
        done.wait()
        let use = try #require(try switched.withLock { $0 }?.get())
        #expect(use.path == "/dev/video8" && use.from > 1 && use.from < 3)
        #expect(report.endedWell && report.outcome.droppedFrames + report.outcome.queueDroppedFrames == 0)
        let entry = try store.entry(id: report.id)
        #expect(entry.sidecar.cameras?.map(\.path) == ["/dev/video9", "/dev/video8"])
        #expect(entry.sidecar.cameraPath == "/dev/video8")
        // Every slot of the movie, the second camera's numbering starting afresh where it
        // took over (after any slots filled with the first camera's last picture).
        let written = try lines(entry.mediaPath)
        #expect(written.map(\.slot) == Array(0..<90))
        let numbers: [Int64] = written.map { $0.camera }
        let firstOfSecond = Int((use.from * 30).rounded())
        #expect(numbers[firstOfSecond] == 0, "\(numbers)")
        // The first camera's last picture fills the slots before it, counted as such.
        let last = numbers[firstOfSecond - 1]
        let repeats = Int64(numbers[..<firstOfSecond].filter { $0 == last }.count - 1)
        #expect(report.outcome.switchFilledFrames == repeats, "\(numbers)")
        #expect(try contents(entry.mediaPath).audio == 3 * 48000, "the audio goes on untouched")
        #expect(throws: CaptureSessionError.self) { try recorder.switchCamera(to: ScriptedDevices(cameraPath: "/dev/video7")) }
    }
}
