import Foundation
import Glibc
import Synchronization
import VidrecCore
import VidrecFFmpeg
import VidrecMedia
import VidrecMP4
import VidrecSystem

/// `vidrec start`: record into the pending area until a limit, `vidrec stop`, Ctrl-C or
/// SIGTERM; optionally save to the album when it ends well.
struct StartCommand: VidrecCommand {
    static var spec: CommandSpec { StartOptions.spec }

    /// The options, checked.
    let options: StartOptions

    init(_ arguments: ParsedArguments) throws(ParserError) {
        options = try StartOptions(arguments)
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let log = try options.logPath.map { try LogFile(path: ($0 as NSString).expandingTildeInPath) }
        // With --quiet, only failures reach stderr (cron mails what a job prints);
        // the log gets everything.
        var logged = context
        let quiet = options.quiet
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
        // The features' parts that outlive the recording (the upload queue), once made.
        let after = FollowUps()
        do {
            // The live status line goes to the terminal only, never to the log.
            let code = try record(logged, failure: failure, terminal: options.quiet || !context.errIsTerminal ? nil : context.err,
                                  after: after)
            let lines = after.all.compactMap { $0.finish() }
            // Not silent under cron: the files are safe, but they are not where they
            // were asked to go.
            for line in lines { failure(line) }
            return code == .success && !lines.isEmpty ? .temporaryFailure : code
        } catch {
            let (message, code) = RuntimeFailure.classify(error)
            for part in after.all {
                part.happened(.failed(reason: message, exitCode: code.rawValue))
                part.abandon()
            }
            log?.write("Error: \(message)")
            throw error
        }
    }

    private func record(_ context: CommandContext, failure report: @escaping @Sendable (String) -> Void,
                        terminal: (@Sendable (String) -> Void)?, after: FollowUps) throws -> ExitCode {
        let store = try context.store()
        // A saved file, and what else happens: told to the parts that follow the
        // recording (--upload, the hooks).
        let followSaved: @Sendable (SavedFile) -> Void = { file in
            for part in after.all { part.saved(file) }
        }
        let tell: @Sendable (RecordingHappening) -> Void = { happening in
            for part in after.all { part.happened(happening) }
        }
        let (request, sideOutputs, answers, controlProblem) = try makeRequest(context, failure: report, after: after,
                                                                              followSaved: followSaved, tell: tell)
        let devices = SystemDevices(camera: options.camera, cameraFormat: options.cameraFormat, fit: options.fit, microphone: options.microphone,
                                    controls: options.controls, keepControls: options.keepControls,
                                    previewClaims: context.paths.runtimeDirectory) {
            context.err("vidrec: \($0)\n")
        }
        let outputs = FFmpegMovieOutputs(sideOutputs: sideOutputs) { context.err("vidrec: \($0)\n") }
        let recorder = Recorder(store: store, devices: devices, outputs: outputs,
                                saver: AlbumSaver(store: store, manifest: context.manifest, finalizer: MovieFinalizer(), posterFrames: PosterFrame(),
                                warn: { [err = context.err] in err("vidrec: \($0)\n") }))
        // The newest progress, from the session's thread, for the stop message.
        let latest = Mutex<SessionProgress?>(nil)
        watchSignals(recorder: recorder, after: after, latest: { latest.withLock { $0 } }, context, failure: report)

        let status = StatusLine(enabled: terminal != nil, limit: options.limit, write: terminal ?? { _ in })
        let warnedOfOverload = Atomic<Bool>(false)
        var control: ControlServer?
        defer { control?.close() }
        let result = try recorder.record(request) { event in
            switch event {
            case let .started(id, preset, settings, sources, limit):
                // Before the recording line: whoever waits for it may ask at once.
                if let controlProblem {
                    context.err("vidrec: no control socket (\(controlProblem)); 'vidrec snap', 'switch', 'trigger', 'pause' and 'resume' cannot reach this recording\n")
                }
                control = request.controlSocket(id: id).flatMap { path in
                    let recording = ControlledRecording(recorder: recorder, warn: context.err, photos: store.directory, fit: options.fit,
                                                        camera: sources.first ?? "the camera", progress: { latest.withLock { $0 } })
                    return StartCommand.controlServer(at: path, answers: RecordingControls.answers + answers, recording: recording)
                }
                tell(.started(id: id, camera: sources.first ?? ""))
                let until = limit.map { "for \($0)" } ?? "until stopped"
                context.err("vidrec: recording \(id) (\(preset): \(settings)) from \(sources.joined(separator: " + ")), \(until)\n")
            case .progress(let progress):
                latest.withLock { $0 = progress }
                if let warning = OverloadWarning.line(progress),
                   !warnedOfOverload.exchange(true, ordering: .relaxed) {
                    terminal?("\r\u{1B}[K")  // the status line, cleared on the terminal only
                    context.err(warning + "\n")
                }
                status.update(progress)
            case .camera(let event):
                terminal?("\r\u{1B}[K")  // the status line, cleared on the terminal only
                context.err(StartCommand.line(for: event, window: options.reconnect) + "\n")
                if case let .lost(camera, reason) = event { tell(.cameraGone(camera: camera, reason: "\(reason)")) }
            case .ended:
                status.clear()
            }
        }
        let kind: SavedFile.Kind = options.events != nil ? .event : options.segment != nil ? .segment : .recording
        return render(result, context, failure: { line, code in
            report(line)
            tell(.failed(reason: line.dropFirst("vidrec: ".count).trimmingCharacters(in: .newlines), exitCode: code.rawValue))
        }, followSaved: {
            followSaved(SavedFile(path: $0, album: request.save?.album.path, kind: kind, id: result.id, duration: result.outcome.duration.doubleValue))
        })
    }

    /// The end line's words for the times the camera was gone: `camera gone
    /// 12:03:04-12:03:09 (5.2 s; 78 frames hold its last picture; back once)`, each
    /// gap in local time, then their total.
    static func cameraGaps(_ outcome: RecordingOutcome) -> String {
        let spans = outcome.cameraGaps.compactMap { gap in
            gap.startTime.flatMap { start in
                DateText.local("%H:%M:%S", start).map { "\($0)-\(DateText.local("%H:%M:%S", start + gap.seconds) ?? "")" }
            }
        }
        let total = outcome.cameraGaps.reduce(0) { $0 + $1.seconds }
        let times = outcome.cameraReturns == 0 ? "never" : outcome.cameraReturns == 1 ? "once" : "\(outcome.cameraReturns) times"
        return "camera gone " + (spans.isEmpty ? "" : spans.joined(separator: ", ") + " ")
            + String(format: "(%.1f s; %lld frames hold its last picture; back %@)", total, outcome.cameraGapFrames, times)
    }

    /// The message for a camera that went, came back or was given up on.
    static func line(for event: CameraReconnection.Event, window: Rational) -> String {
        switch event {
        case let .lost(camera, reason):
            "vidrec: camera \(camera) is gone: \(reason); waiting up to \(window) s for it to come back (--reconnect)"
        case let .back(camera, after):
            String(format: "vidrec: camera %@ is back after %.1f s; its last picture holds the gap", camera, after)
        case let .gaveUp(camera, after, lastTry):
            String(format: "vidrec: camera %@ did not come back within %.0f s", camera, after)
                + (lastTry.map { " (the last try to open it: \($0))" } ?? "")
        }
    }

    /// The preset asked for, with `--rotate`, `--mirror` and `--video` applied.
    private func preset(_ context: CommandContext) throws -> Preset {
        var preset = try context.presetLibrary.preset(named: options.quality)
        preset.settings.video.rotation = options.rotation
        preset.settings.video.isMirrored = options.mirror
        var handling = options.video ?? preset.settings.video.handling
        if handling != .encode, let reason = options.reasonNotToCopy {
            if handling == .copy {
                throw CLIError("preset \(preset.name) stores the camera's stream as it is (video.handling copy), which cannot be done with \(reason); give --video encode", .usage)
            }
            handling = .encode
        }
        preset.settings.video.handling = handling
        return preset
    }

    /// What the options ask of the ``Recorder``: the preset, the limits, the save, the
    /// mode with its series of files, the features, the control socket's folder.
    ///
    /// The features' parts that outlive the recording go into `after`.
    ///
    /// - Returns: the request, the features' outputs beside the movie file, the requests
    ///   of the control socket they answer, and why there is no control socket, if there
    ///   is none (said once the recording has started: a recording that cannot start
    ///   says only why).
    private func makeRequest(_ context: CommandContext, failure: @escaping @Sendable (String) -> Void, after: FollowUps,
                             followSaved: @escaping @Sendable (SavedFile) -> Void,
                             tell: @escaping @Sendable (RecordingHappening) -> Void) throws
        -> (RecordingRequest, sideOutputs: [SideOutput], answers: [ControlAnswer], controlProblem: (any Error)?) {
        let started = Date()
        var request = RecordingRequest(
            preset: try preset(context), duration: options.limit, maxFileSize: options.maxSize, minFreeSpace: options.minFree,
            saveName: options.saveName ?? options.nameTemplate.map { NameTemplate.expand($0, at: started) },
            save: options.save ? SaveRequest(album: context.album(options.albumPath), keep: options.keep, albumMaxSize: options.albumMaxSize,
                                              maxAge: options.maxAge) : nil,
            startTime: started, pid: getpid())
        request.reconnect = options.reconnect
        var controlProblem: (any Error)?
        do {
            try PrivateFolder.prepare(context.paths.runtimeDirectory, closed: true)
            request.controlFolder = context.paths.runtimeDirectory
        } catch {
            controlProblem = error
        }
        if options.segment != nil || options.events != nil {
            var name: (@Sendable (Date) -> String)?
            if let template = options.nameTemplate {
                name = { date in NameTemplate.expand(template, at: date) }
            }
            let events = options.events != nil
            let kind = events ? "event" : "segment"
            let album = request.save?.album.path
            var series = FileSeries(name: name, closed: { segment in
                StartCommand.report(segment, kind: kind, context)
                if let saved = segment.savedPath {
                    followSaved(SavedFile(path: saved, album: album, kind: events ? .event : .segment, id: segment.id, duration: segment.duration))
                }
                if events { tell(.eventEnded(segment)) }
            }, reclaimed: { path in
                context.err("vidrec: removed older recording \(path) to stay above the --min-free floor\n")
            })
            if events { series.opened = { index, id, start in tell(.eventStarted(index: index, id: id, start: start)) } }
            if let events = options.events {
                request.mode = .events(EventSettings(pre: events.pre, post: events.post), series)
            } else if let seconds = options.segment {
                request.mode = .segments(SegmentSettings(seconds: seconds, atClock: options.segmentAtClock), series)
            }
        }
        let setup = StartFeature.Setup(context: context, options: options, saved: { file in
            context.out(file.path + "\n")
            followSaved(file)
        }, warn: { context.err("vidrec: \($0)\n") }, failure: failure, log: context.err)
        var parts: [StartFeature.Parts] = []
        for make in options.features {
            let made = try make(setup)
            parts.append(made)
            if let part = made.followUp { after.add(part) }
        }
        request.features = parts.compactMap(\.recording)
        return (request, parts.flatMap(\.sideOutputs), parts.flatMap(\.requests), controlProblem)
    }

    /// Blocks the signals (before any thread exists: x264 and the capture threads
    /// inherit the mask) and answers them on a thread of their own: SIGINT, SIGTERM and
    /// SIGHUP stop the recording (a later second SIGINT aborts: ``StopSignals``), SIGUSR1 triggers it; once the
    /// recording is over, a signal ends the work of the parts that outlive it (uploads).
    private func watchSignals(recorder: Recorder, after: FollowUps, latest: @escaping @Sendable () -> SessionProgress?,
                              _ context: CommandContext, failure report: @escaping @Sendable (String) -> Void) {
        SignalWatcher.blockSignals()
        let stops = Mutex(StopSignals())
        _ = SignalWatcher { signal in
            let finishing = after.all.filter(\.isFinishing)
            if !finishing.isEmpty {
                // The recording is over and saved; only the parts after it are working.
                if signal != SIGUSR1 {
                    for part in finishing { context.err("vidrec: \(part.interrupt())\n") }
                }
                return
            }
            if signal == SIGUSR1 {
                if recorder.trigger() { context.err("vidrec: triggered (SIGUSR1)\n") }
                return
            }
            let action = stops.withLock { $0.take(signal, at: MonotonicClock.now()) }
            if action == .stop {
                recorder.requestStop()
                let name = signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "SIGHUP"
                let backlog = latest().map(BacklogNote.stopping) ?? ""
                context.err((context.errIsTerminal ? "\r\u{1B}[K" : "") + "vidrec: stopping (\(name)); finishing the file" + backlog
                            + (signal == SIGINT ? " (Ctrl-C again aborts)" : "") + "\n")
            } else if action == .abort {
                report("\nvidrec: aborted; the recording so far is kept as interrupted: 'vidrec save' recovers it\n")
                _exit(ExitCode.aborted.rawValue)
            }
        }
    }

    /// The end of the recording, in words and an exit code: a failure on stderr even
    /// with --quiet; else the end line, what was left behind, and the saved path on
    /// standard output (told to the parts that follow saved files, as --upload).
    private func render(_ result: RecordingReport, _ context: CommandContext, failure report: (String, ExitCode) -> Void,
                        followSaved: (String) -> Void) -> ExitCode {
        let outcome = result.outcome
        let summary = StartCommand.summary(result)
        for line in result.featureLines { context.err("vidrec: \(line)\n") }
        if let error = outcome.error {
            let (message, code) = RuntimeFailure.classify(error)
            report("vidrec: recording \(result.id) failed: \(message) (\(summary); kept in pending)\n", code)
            return code
        }
        if let finalizeError = result.finalizeError {
            let (message, code) = RuntimeFailure.classify(finalizeError)
            let exit: ExitCode = code == .failure ? .ioError : code
            report("vidrec: recording \(result.id) could not be finalized: \(message); the recording so far is kept in pending as interrupted and plays as it is; 'vidrec save' finalizes it later\n", exit)
            return exit
        }
        if case .lowDiskSpace = outcome.reason {
            report("vidrec: recording \(result.id) \(outcome.reason.message) (\(summary); kept in pending)\n", .ioError)
            return .ioError
        }
        context.err("vidrec: \(outcome.reason.message): \(summary)\n")
        for lost in outcome.lostOutputs { context.err("vidrec: left behind: \(lost)\n") }
        if result.nothingRecorded {
            context.err("vidrec: stopped before the first frame; nothing was recorded\n")
            return .success
        }
        if options.events != nil, result.segments.isEmpty {
            context.err("vidrec: no trigger came; nothing was recorded\n")
            return .success
        }
        if !result.segments.isEmpty {
            let saved = options.save ? "saved" : "pending; keep them with 'vidrec save ID'"
            let kind = options.events == nil ? "segment" : "event"
            context.err("vidrec: \(result.segments.count) \(kind)\(result.segments.count == 1 ? "" : "s"), \(result.segments.first!) to \(result.segments.last!), \(saved)\n")
            return .success
        }
        guard let saved = result.savedPath else {
            context.err("vidrec: recording \(result.id) is pending; keep it with 'vidrec save'\n")
            return .success
        }
        for path in result.removedFromAlbum { context.err("vidrec: removed older recording \(path)\n") }
        context.out(saved + "\n")
        followSaved(saved)
        return .success
    }

    /// The recording's control socket, through which other vidrecs reach it: each
    /// request is answered by its ``ControlAnswer`` (`snap`, `switch`, `viewfinder`,
    /// `trigger`, `pause`, `resume`). A socket that cannot be made costs only that: the
    /// recording goes on, and says so.
    static func controlServer(at path: String, answers: [ControlAnswer], recording: ControlledRecording) -> ControlServer? {
        let byName = Dictionary(answers.map { ($0.name, $0) }) { first, _ in first }
        do {
            return try ControlServer(path: path) { request in
                guard let answer = request.name.flatMap({ byName[$0] }) else { return ControlAnswer.unknown(request.command) }
                do {
                    return try answer.answer(request, recording)
                } catch {
                    let (message, code) = RuntimeFailure.classify(error)
                    return ControlReply(error: message, exitCode: code.rawValue)
                }
            }
        } catch {
            recording.warn("vidrec: no control socket (\(error)); 'vidrec snap', 'switch', 'trigger', 'pause' and 'resume' cannot reach this recording\n")
            return nil
        }
    }

    /// One line for each segment of a continuous recording as it closes: its path on
    /// standard output when it was saved, else a line on standard error.
    static func report(_ segment: SegmentReport, kind: String, _ context: CommandContext) {
        let length = segment.duration.map { String(format: "%.3f s", $0) } ?? "length unknown"
        if let problem = segment.problem {
            context.err("vidrec: \(kind) \(segment.index + 1) (\(segment.id), \(length)) \(problem)\n")
        } else if let saved = segment.savedPath {
            for path in segment.removedFromAlbum { context.err("vidrec: removed older recording \(path)\n") }
            context.out(saved + "\n")
        } else {
            context.err("vidrec: \(kind) \(segment.index + 1) closed: \(segment.id), \(length), pending\n")
        }
    }

    /// What the end line says after the reason: duration, frames, drops, gaps, size.
    static func summary(_ result: RecordingReport) -> String {
        let outcome = result.outcome
        var summary = result.isAudioOnly ? String(format: "%.3f s of sound", outcome.duration.doubleValue)
            : String(format: "%.3f s, %lld frames", outcome.duration.doubleValue, outcome.videoFrames)
        let dropped = outcome.droppedFrames + outcome.queueDroppedFrames
        if dropped > 0 {
            summary += ", \(dropped) dropped (\(outcome.droppedFrames) by the camera, \(outcome.queueDroppedFrames) because encoding fell behind)"
        }
        if outcome.cameraGapFrames > 0 || outcome.cameraReturns > 0 {
            summary += ", " + StartCommand.cameraGaps(outcome)
        }
        if outcome.deviceSkippedFrames > 0 { summary += ", the camera reports \(outcome.deviceSkippedFrames) skipped" }
        if outcome.undecodableFrames > 0 {
            summary += ", \(outcome.undecodableFrames) of the camera's frames left out (they did not decode, or followed a lost frame before the next keyframe)"
        }
        if outcome.surplusFrames > 0 {
            summary += ", \(outcome.surplusFrames) of the camera's frames left out (it sent more than the frame rate holds)"
        }
        if outcome.pausedFrames > 0 {
            if result.isAudioOnly, let rate = result.frameRate {
                summary += String(format: ", %.2f s left out while paused", (Rational(outcome.pausedFrames) * rate.reciprocal).doubleValue)
            } else {
                summary += ", \(outcome.pausedFrames) of the camera's frames left out while paused"
            }
        }
        if let overruns = result.overruns, overruns > 0 { summary += ", \(overruns) microphone overrun\(overruns == 1 ? "" : "s")" }
        if outcome.insertedSilence > 0, let rate = result.audioSampleRate {
            summary += String(format: ", %.2f s of silence filled in for microphone gaps", Double(outcome.insertedSilence) / Double(rate))
        }
        if outcome.closingSilence > 0, let rate = result.audioSampleRate {
            summary += String(format: ", %.2f s of silence at the end (the microphone stopped sending before the camera)",
                              Double(outcome.closingSilence) / Double(rate))
        }
        if outcome.movedSoundStart != 0, let rate = result.audioSampleRate {
            let moved = String(format: "%.2f", Double(abs(outcome.movedSoundStart)) / Double(rate))
            summary += ", the sound's start moved \(moved) s \(outcome.movedSoundStart > 0 ? "later" : "earlier") (its first timestamps were off)"
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
