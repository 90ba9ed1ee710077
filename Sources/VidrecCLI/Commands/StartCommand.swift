import Foundation
import Glibc
import Synchronization
import VidrecCore
import VidrecFFmpeg
import VidrecMedia

/// `vidrec start`: record into the pending area until a limit, `vidrec stop`, Ctrl-C or
/// SIGTERM; optionally save to the album when it ends well.
struct StartCommand: VidrecCommand {
    static let spec = CommandSpec(
        name: "start",
        abstract: "Record a movie from the camera and microphone.",
        discussion: """
        The recording is written to the pending area as it is made and stays playable \
        even if vidrec is killed. It ends at --max or --max-size, on 'vidrec stop', Ctrl-C \
        or SIGTERM (a second Ctrl-C aborts), or before the disk falls below --min-free. \
        Commit it to the album with 'vidrec save', or pass --save.
        """,
        arguments: [
            .option("camera", value: "camera", help: "A camera: /dev/videoN, an index or part of a name from 'vidrec devices', or 'test' for the built-in test pattern. (default: the first camera)"),
            .option("camera-format", value: "fourcc", help: "Force the camera's pixel format: YUYV, UYVY, NV12, YU12, YV12, RGB3, BGR3 or MJPG."),
            .option("fit", value: "how", help: "How to fit a camera picture of another aspect ratio: crop (fill, cutting the edges), pad (black bars) or stretch. (default: crop)"),
            .option("mic", value: "mic", help: "A microphone: an ALSA name (default, hw:1,0, plughw:…), an index from 'vidrec devices', 'test' for a 1 kHz tone, or 'none'. (default: default)"),
            .option("quality", value: "preset", short: "q", help: "A preset name (see 'vidrec presets') or a preset file. (default: medium)"),
            .option("max", value: "seconds", help: "Stop after exactly this much media time, such as 30 or 2.5."),
            .option("max-size", value: "size", help: "Stop before the file exceeds this size, such as 500K, 50M or 2G."),
            .option("min-free", value: "size", help: "Stop before the disk has less free space than this; 0 turns the check off. (default: 200M)"),
            .flag("save", help: "Save to the album when the recording ends well."),
            .option("as", value: "name", help: "The file name to save under."),
            .option("name", value: "template", help: "The file name to save under, with strftime fields: 'door-%Y%m%d-%H%M%S'."),
            .option("album", value: "dir", help: "The album folder (with --save). (default: $VIDREC_ALBUM or ~/Videos/vidrec)"),
            .option("keep", value: "count", help: "With --save: keep only this many of vidrec's newest recordings in the album."),
            .option("album-max-size", value: "size", help: "With --save: remove vidrec's oldest recordings from the album beyond this total size."),
            .option("log", value: "file", help: "Also append every message, with the time, to this file."),
            .flag("quiet", help: "Print nothing when all goes well (messages still go to --log); a failure still prints one line on stderr. For cron."),
        ])

    var camera: String
    var cameraFormat: PixelFormat?
    var fit: VideoFit
    var microphone: String
    var quality: String
    var limit: DurationLimit?
    var maxSize: Int64?
    var minFree: Int64?
    var save: Bool
    var saveName: String?
    var nameTemplate: String?
    var albumPath: String?
    var keep: Int?
    var albumMaxSize: Int64?
    var logPath: String?
    var quiet: Bool

    init(_ arguments: ParsedArguments) throws(ParserError) {
        camera = arguments[option: "camera"] ?? "default"
        microphone = arguments[option: "mic"] ?? "default"
        quality = arguments[option: "quality"] ?? "medium"
        let fitText = arguments[option: "fit"] ?? "crop"
        guard let fit = VideoFit(rawValue: fitText) else {
            throw .invalidValue(fitText, for: "--fit <how>", reason: "use crop, pad or stretch")
        }
        self.fit = fit
        if let text = arguments[option: "camera-format"] {
            guard let format = PixelFormat(rawValue: text.uppercased()) else {
                throw .invalidValue(text, for: "--camera-format <fourcc>", reason: "use one of \(PixelFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            cameraFormat = format
            if camera == "test", format != .yuyv {
                throw .conflicting("--camera-format \(format.rawValue)", "--camera test, which delivers YUYV only")
            }
        }
        if let text = arguments[option: "max"] {
            guard let limit = DurationLimit(parsing: text) else {
                throw .invalidValue(text, for: "--max <seconds>", reason: "give a number of seconds greater than 0 and at most 86400, such as 30 or 2.5")
            }
            self.limit = limit
        }
        maxSize = try StartCommand.size(arguments[option: "max-size"], "--max-size <size>", minimum: 100_000)
        minFree = try StartCommand.size(arguments[option: "min-free"] ?? "200M", "--min-free <size>", minimum: 0)
        if minFree == 0 { minFree = nil }
        save = arguments.has("save")
        saveName = try SaveCommand.validatedName(arguments[option: "as"])
        nameTemplate = arguments[option: "name"]
        if saveName != nil, nameTemplate != nil { throw .conflicting("--as <name>", "--name <template>") }
        if let template = nameTemplate {
            _ = try SaveCommand.validatedName(NameTemplate.expand(template, at: Date()), option: "--name <template>")
        }
        albumPath = arguments[option: "album"]
        if let text = arguments[option: "keep"] {
            guard let count = Int(text), count >= 1, count <= 1_000_000 else {
                throw .invalidValue(text, for: "--keep <count>", reason: "give a whole number of recordings, at least 1")
            }
            keep = count
        }
        albumMaxSize = try StartCommand.size(arguments[option: "album-max-size"], "--album-max-size <size>", minimum: 100_000)
        logPath = arguments[option: "log"]
        quiet = arguments.has("quiet")
        for (given, synopsis) in [(albumPath != nil, "--album <dir>"), (keep != nil, "--keep <count>"), (albumMaxSize != nil, "--album-max-size <size>")]
        where given && !save {
            throw .conflicting(synopsis, "a recording that is not saved; add --save")
        }
    }

    /// Parses a size option (`500K`, `50M`, `2G`), at least `minimum` bytes (0 allowed if 0).
    static func size(_ text: String?, _ synopsis: String, minimum: Int64) throws(ParserError) -> Int64? {
        guard let text else { return nil }
        if text == "0", minimum == 0 { return 0 }
        guard let bytes = ByteCount.parse(text), bytes >= minimum else {
            throw .invalidValue(text, for: synopsis, reason: "give a size such as 500K, 50M or 2G" + (minimum > 0 ? " (at least \(ByteCount.format(minimum)))" : ""))
        }
        return bytes
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let log = try logPath.map { try LogFile(path: ($0 as NSString).expandingTildeInPath) }
        // With --quiet, only failures reach stderr (cron mails what a job prints);
        // the log gets everything.
        var logged = context
        let quiet = quiet
        logged.err = { text in
            if !quiet { context.err(text) }
            log?.write(text)
        }
        // Standard output carries only the saved path; the log says it too.
        logged.out = { text in
            if !quiet { context.out(text) }
            log?.write("vidrec: saved to \(text)")
        }
        let failure: @Sendable (String) -> Void = { text in
            context.err(text)
            log?.write(text)
        }
        do {
            // The live status line goes to the terminal only, never to the log.
            return try record(logged, failure: failure, terminal: quiet || !context.errIsTerminal ? nil : context.err)
        } catch {
            log?.write("Error: \(RuntimeFailure.classify(error).message)")
            throw error
        }
    }

    private func record(_ context: CommandContext, failure report: @escaping @Sendable (String) -> Void,
                        terminal: (@Sendable (String) -> Void)?) throws -> ExitCode {
        let preset = try context.presetLibrary.preset(named: quality)
        let store = try context.store()
        let started = Date()
        let request = RecordingRequest(
            preset: preset, duration: limit, maxFileSize: maxSize, minFreeSpace: minFree,
            saveName: saveName ?? nameTemplate.map { NameTemplate.expand($0, at: started) },
            save: save ? SaveRequest(album: context.album(albumPath), keep: keep, albumMaxSize: albumMaxSize) : nil,
            startTime: started, pid: getpid())
        let devices = SystemDevices(camera: camera, cameraFormat: cameraFormat, fit: fit, microphone: microphone) {
            context.err("vidrec: \($0)\n")
        }
        let recorder = Recorder(store: store, devices: devices,
                                saver: AlbumSaver(store: store, manifest: context.manifest, finalizer: MovieFinalizer()))
        // Before any thread exists (x264 and the capture threads inherit the mask).
        SignalWatcher.blockSignals()
        let interrupts = Atomic<Int>(0)
        _ = SignalWatcher { signal in
            let count = interrupts.add(1, ordering: .sequentiallyConsistent).newValue
            if count == 1 {
                recorder.requestStop()
                let name = signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "SIGHUP"
                context.err((context.errIsTerminal ? "\r\u{1B}[K" : "") + "vidrec: stopping (\(name)); finishing the file" + (signal == SIGINT ? " (Ctrl-C again aborts)" : "") + "\n")
            } else if signal == SIGINT {
                report("\nvidrec: aborted; the recording so far is kept as interrupted: 'vidrec save' recovers it\n")
                _exit(ExitCode.aborted.rawValue)
            }
        }

        let status = StatusLine(enabled: terminal != nil, limit: limit, write: terminal ?? { _ in })
        let result = try recorder.record(request) { event in
            switch event {
            case let .started(id, preset, settings, sources, limit):
                let until = limit.map { "for \($0)" } ?? "until stopped"
                context.err("vidrec: recording \(id) (\(preset): \(settings)) from \(sources.joined(separator: " + ")), \(until)\n")
            case .progress(let progress):
                status.update(progress)
            case .ended:
                status.clear()
            }
        }

        let outcome = result.outcome
        let summary = StartCommand.summary(result)
        if let error = outcome.error {
            let (message, code) = RuntimeFailure.classify(error)
            report("vidrec: recording \(result.id) failed: \(message) (\(summary); kept in pending)\n")
            return code
        }
        if let finalizeError = result.finalizeError {
            let (message, code) = RuntimeFailure.classify(finalizeError)
            report("vidrec: recording \(result.id) could not be finalized: \(message); the recording so far is kept in pending as interrupted and plays as it is; 'vidrec save' finalizes it later\n")
            return code == .failure ? .ioError : code
        }
        if case .lowDiskSpace = outcome.reason {
            report("vidrec: recording \(result.id) \(outcome.reason.message) (\(summary); kept in pending)\n")
            return .ioError
        }
        context.err("vidrec: \(outcome.reason.message): \(summary)\n")
        for lost in outcome.lostOutputs { context.err("vidrec: left behind: \(lost)\n") }
        guard let saved = result.savedPath else {
            context.err("vidrec: recording \(result.id) is pending; keep it with 'vidrec save'\n")
            return .success
        }
        for path in result.removedFromAlbum { context.err("vidrec: removed older recording \(path)\n") }
        context.out(saved + "\n")
        return .success
    }

    /// What the end line says after the reason: duration, frames, drops, gaps, size.
    static func summary(_ result: RecordingReport) -> String {
        let outcome = result.outcome
        var summary = String(format: "%.3f s, %lld frames", outcome.duration.doubleValue, outcome.videoFrames)
        let dropped = outcome.droppedFrames + outcome.queueDroppedFrames
        if dropped > 0 {
            summary += ", \(dropped) dropped (\(outcome.droppedFrames) by the camera, \(outcome.queueDroppedFrames) because encoding fell behind)"
        }
        if outcome.deviceSkippedFrames > 0 { summary += ", the camera reports \(outcome.deviceSkippedFrames) skipped" }
        if let overruns = result.overruns, overruns > 0 { summary += ", \(overruns) microphone overrun\(overruns == 1 ? "" : "s")" }
        if outcome.insertedSilence > 0, let rate = result.audioSampleRate {
            summary += String(format: ", %.2f s of silence filled in for microphone gaps", Double(outcome.insertedSilence) / Double(rate))
        }
        if outcome.droppedAudio > 0, let rate = result.audioSampleRate {
            summary += String(format: ", %.2f s of audio dropped (a full queue, or microphone timestamps that jumped back)",
                              Double(outcome.droppedAudio) / Double(rate))
        }
        if outcome.stretchedAudio != 0, let rate = result.audioSampleRate {
            summary += String(format: ", the microphone's clock drift corrected by resampling (%+.3f s)",
                              Double(outcome.stretchedAudio) / Double(rate))
        }
        return summary + ", \(ByteCount.format(outcome.bytes))"
    }
}
