import Foundation
import Glibc
import Synchronization
import VidrecCore
import VidrecFFmpeg
import VidrecMedia

/// `vidrec start`: record into the pending area until `--max`, `vidrec stop`, Ctrl-C or
/// SIGTERM; optionally save to the album when it ends well.
struct StartCommand: VidrecCommand {
    static let spec = CommandSpec(
        name: "start",
        abstract: "Record a movie from the camera and microphone.",
        discussion: """
        The recording is written to the pending area as it is made and stays playable \
        even if vidrec is killed. It ends at --max, on 'vidrec stop', Ctrl-C or SIGTERM \
        (a second Ctrl-C aborts). Commit it to the album with 'vidrec save', or pass --save.
        """,
        arguments: [
            .option("camera", value: "camera", help: "A camera: /dev/videoN, an index or part of a name from 'vidrec devices', or 'test' for the built-in test pattern. (default: the first camera)"),
            .option("camera-format", value: "fourcc", help: "Force the camera's pixel format: YUYV, UYVY, NV12, YU12, YV12, RGB3, BGR3 or MJPG."),
            .option("mic", value: "mic", help: "A microphone: an ALSA name (default, hw:1,0, plughw:…), an index from 'vidrec devices', 'test' for a 1 kHz tone, or 'none'. (default: default)"),
            .option("quality", value: "preset", short: "q", help: "A preset name (see 'vidrec presets') or a preset file. (default: medium)"),
            .option("max", value: "seconds", help: "Stop after exactly this much media time, such as 30 or 2.5."),
            .flag("save", help: "Save to the album when the recording ends well."),
            .option("as", value: "name", help: "The file name to save under (with --save)."),
            .option("album", value: "dir", help: "The album folder (with --save). (default: $VIDREC_ALBUM or ~/Videos/vidrec)"),
        ])

    var camera: String
    var cameraFormat: PixelFormat?
    var microphone: String
    var quality: String
    var limit: DurationLimit?
    var save: Bool
    var saveName: String?
    var albumPath: String?

    init(_ arguments: ParsedArguments) throws(ParserError) {
        camera = arguments[option: "camera"] ?? "default"
        microphone = arguments[option: "mic"] ?? "default"
        if let text = arguments[option: "camera-format"] {
            guard let format = PixelFormat(rawValue: text.uppercased()) else {
                throw .invalidValue(text, for: "--camera-format <fourcc>", reason: "use one of \(PixelFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            cameraFormat = format
        }
        quality = arguments[option: "quality"] ?? "medium"
        if let text = arguments[option: "max"] {
            guard let limit = DurationLimit(parsing: text) else {
                throw .invalidValue(text, for: "--max <seconds>", reason: "give a number of seconds greater than 0 and at most 86400, such as 30 or 2.5")
            }
            self.limit = limit
        }
        save = arguments.has("save")
        saveName = try SaveCommand.validatedName(arguments[option: "as"])
        albumPath = arguments[option: "album"]
        if !save, saveName != nil { throw .conflicting("--as <name>", "a recording that is not saved; add --save") }
        if !save, albumPath != nil { throw .conflicting("--album <dir>", "a recording that is not saved; add --save") }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        var preset = try context.presetLibrary.preset(named: quality)
        let video = try SourceFactory.camera(camera, format: cameraFormat, preset: &preset) { context.err("vidrec: \($0)\n") }
        let audio = try SourceFactory.microphone(microphone, preset: preset)
        if audio == nil { preset.settings.audio = nil }
        let album = context.album(albumPath)
        if save { try album.prepare() }
        let store = try context.store()
        // Before any thread exists (x264 starts its own in avcodec_open2).
        SignalWatcher.blockSignals()

        let (entry, lock) = try store.create(at: Date()) { id in
            var sidecar = RecordingSidecar(
                id: id, preset: preset.name, presetFile: preset.file, camera: video.displayName,
                microphone: audio?.displayName, container: preset.settings.container, startTime: Date(),
                pid: getpid(), maxDuration: limit?.seconds.doubleValue)
            sidecar.saveName = saveName
            return sidecar
        }
        var sidecar = entry.sidecar
        let output: MovieFileOutput
        do {
            output = try MovieFileOutput(path: entry.partialPath, settings: preset.settings)
        } catch {
            unlink(entry.partialPath)
            try? store.discard(store.entry(id: entry.id))
            _ = lock
            throw error
        }

        let session = CaptureSession(video: video, audio: audio, frameRate: preset.settings.video.frameRate, limit: limit)
        let interrupts = Atomic<Int>(0)
        let watcher = SignalWatcher { signal in
            let count = interrupts.add(1, ordering: .sequentiallyConsistent).newValue
            if count == 1 {
                session.requestStop()
            } else if signal == SIGINT {
                context.err("\nvidrec: aborted; the recording so far is kept as interrupted: 'vidrec save' recovers it\n")
                _exit(ExitCode.aborted.rawValue)
            }
        }
        _ = watcher

        let sources = [video.displayName, audio?.displayName].compactMap { $0 }.joined(separator: " + ")
        let until = limit.map { "for \($0)" } ?? "until stopped"
        context.err("vidrec: recording \(entry.id) (\(preset.name): \(preset.resolvedDescription)) from \(sources), \(until)\n")
        let status = StatusLine(enabled: context.errIsTerminal, limit: limit, write: context.err)
        let outcome = try session.run(into: output, progress: status.update)
        status.clear()

        // Finalize the fragments into an indexed movie, then record the result.
        var finalizeError: (any Error)?
        do { try store.finalize(entry, with: MovieFinalizer()) } catch { finalizeError = error }
        sidecar.state = outcome.reason.isSuccess && finalizeError == nil ? .finished : .failed
        sidecar.duration = outcome.duration.doubleValue
        sidecar.videoFrames = outcome.videoFrames
        sidecar.droppedFrames = outcome.droppedFrames + outcome.queueDroppedFrames
        sidecar.insertedSilence = audio.map { Double(outcome.insertedSilence) / Double($0.audioFormat.sampleRate) }
        sidecar.endReason = outcome.reason.message
        try store.write(sidecar)
        // The sidecar now says how it ended; the lock file has done its job.
        unlink(entry.lockPath)
        withExtendedLifetime(lock) {}

        let dropped = outcome.droppedFrames + outcome.queueDroppedFrames
        var summary = String(format: "%.3f s, %lld frames", outcome.duration.doubleValue, outcome.videoFrames)
        if dropped > 0 { summary += ", \(dropped) dropped (\(outcome.droppedFrames) by the camera, \(outcome.queueDroppedFrames) because encoding fell behind)" }
        if outcome.insertedSilence > 0, let audio {
            summary += String(format: ", %.2f s of silence filled in for microphone gaps", Double(outcome.insertedSilence) / Double(audio.audioFormat.sampleRate))
        }
        summary += ", \(ByteCount.format(outcome.bytes))"
        if let error = outcome.error {
            let (message, code) = RuntimeFailure.classify(error)
            context.err("vidrec: recording \(entry.id) failed: \(message) (\(summary); kept in pending)\n")
            return code
        }
        if let finalizeError {
            let (message, _) = RuntimeFailure.classify(finalizeError)
            context.err("vidrec: recording \(entry.id) could not be finalized: \(message); the fragmented file is kept in pending\n")
            return .ioError
        }
        context.err("vidrec: \(outcome.reason.message): \(summary)\n")
        guard save else {
            context.err("vidrec: recording \(entry.id) is pending; keep it with 'vidrec save'\n")
            return .success
        }
        let saved = try store.commit(store.entry(id: entry.id), to: album, name: saveName, finalizer: MovieFinalizer())
        context.out(saved + "\n")
        return .success
    }
}
