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
        let log = try StartLog(context, path: options.logPath, quiet: options.quiet)
        let failure = log.failure
        // The features' parts that outlive the recording (the upload queue), once made.
        let after = FollowUps()
        do {
            let code = try record(log.context, failure: failure, terminal: log.terminal, after: after)
            let lines = after.all.compactMap { $0.finish() }
            // Not silent under cron: the files are safe, but they are not where they
            // were asked to go.
            for line in lines { failure(line) }
            return code == .success && !lines.isEmpty ? .temporaryFailure : code
        } catch {
            let (message, code) = RuntimeFailure.classify(error)
            after.happened(.failed(reason: message, exitCode: code.rawValue))
            for part in after.all { part.abandon() }
            log.error(message)
            throw error
        }
    }

    private func record(_ context: CommandContext, failure report: @escaping @Sendable (String) -> Void,
                        terminal: (@Sendable (String) -> Void)?, after: FollowUps) throws -> ExitCode {
        let store = try context.store()
        let (request, sideOutputs, answers, controlProblem) = try makeRequest(context, failure: report, after: after)
        let recorder = makeRecorder(context, store: store, sideOutputs: sideOutputs)
        // The newest progress, from the session's thread, for the stop message.
        let latest = Mutex<SessionProgress?>(nil)
        watchSignals(recorder: recorder, after: after, latest: { latest.withLock { $0 } }, context, failure: report)

        let status = StatusLine(enabled: terminal != nil, maxDuration: options.maxDuration, write: terminal ?? { _ in })
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
                    return ControlServer.answering(at: path, answers: RecordingControls.answers + answers, recording: recording)
                }
                after.happened(.started(id: id, camera: sources.first ?? ""))
                let until = limit.map { "for \($0)" } ?? "until stopped"
                context.err("vidrec: recording \(id) (\(preset): \(settings)) from \(sources.joined(separator: " + ")), \(until)\n")
            case .progress(let progress):
                let wasPaused = latest.withLock { latest in
                    defer { latest = progress }
                    return latest?.isPaused ?? false
                }
                if progress.isPaused != wasPaused { after.happened(.paused(progress.isPaused)) }
                if let warning = OverloadWarning.line(progress),
                   !warnedOfOverload.exchange(true, ordering: .relaxed) {
                    terminal?("\r\u{1B}[K")  // the status line, cleared on the terminal only
                    context.err(warning + "\n")
                }
                status.update(progress)
            case .reconnection(let event):
                terminal?("\r\u{1B}[K")  // the status line, cleared on the terminal only
                context.err(EndReport.reconnectionLine(for: event, window: options.reconnect) + "\n")
                Self.tell(event, to: after)
            case .ended:
                status.clear()
            }
        }
        let kind: SavedFile.Kind = options.segment != nil ? .segment : options.events != nil ? .event : .recording
        let ending = EndReport(waitsForTriggers: options.events != nil && options.segment == nil, saves: options.save)
        return ending.render(result, context, failure: { line, code in
            report(line)
            after.happened(.failed(reason: line.dropFirst("vidrec: ".count).trimmingCharacters(in: .newlines), exitCode: code.rawValue))
        }, followSaved: {
            after.saved(SavedFile(path: $0, album: request.save?.album.path, kind: kind, id: result.id, duration: result.outcome.duration.doubleValue))
        })
    }

    /// Tells the parts that follow the recording of the devices' comings and goings.
    private static func tell(_ event: ReconnectionEvent, to after: FollowUps) {
        switch event {
        case let .lost(.audio, microphone, reason): after.happened(.microphoneGone(microphone: microphone, reason: reason))
        case let .back(.audio, microphone, seconds): after.happened(.microphoneBack(microphone: microphone, after: seconds))
        case let .lost(_, camera, reason): after.happened(.cameraGone(camera: camera, reason: reason))
        case let .back(_, camera, seconds): after.happened(.cameraBack(camera: camera, after: seconds))
        case .gaveUp: break
        }
    }

    /// The ``Recorder`` of the devices the options name, writing the movie and the
    /// features' `sideOutputs` with FFmpeg, saving into the album.
    private func makeRecorder(_ context: CommandContext, store: RecordingStore, sideOutputs: [SideOutput]) -> Recorder {
        let devices = SystemDevices(camera: options.camera, cameraFormat: options.cameraFormat, fit: options.fit, microphone: options.microphone,
                                    controls: options.controls, keepControls: options.keepControls,
                                    previewClaims: context.paths.runtimeDirectory) {
            context.err("vidrec: \($0)\n")
        }
        let outputs = FFmpegMovieOutputs(sideOutputs: sideOutputs) { context.err("vidrec: \($0)\n") }
        return Recorder(store: store, devices: devices, outputs: outputs,
                        saver: AlbumSaver(store: store, manifest: context.manifest, finalizer: MovieFinalizer(), posterFrames: PosterFrame(),
                                          warn: { [err = context.err] in err("vidrec: \($0)\n") }))
    }

    /// The preset asked for, with `--rotate`, `--mirror` and `--video` applied.
    private func preset(_ context: CommandContext) throws -> Preset {
        var preset = try context.presetLibrary.preset(named: options.quality)
        preset.settings.video.rotation = options.rotation
        preset.settings.video.isMirrored = options.mirror
        preset.settings.video.overlay = options.overlay?.naming(name: HostName.current())
        preset.settings.hasClockTrack = options.clockTrack
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
    private func makeRequest(_ context: CommandContext, failure: @escaping @Sendable (String) -> Void, after: FollowUps) throws
        -> (RecordingRequest, sideOutputs: [SideOutput], answers: [ControlAnswer], controlProblem: (any Error)?) {
        let started = Date()
        var request = RecordingRequest(
            preset: try preset(context), maxDuration: options.maxDuration, maxFileSize: options.maxSize, minFreeSpace: options.minFree,
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
            request.mode = recordingMode(context, album: request.save?.album.path, after: after)
        }
        let setup = StartFeature.Setup(context: context, options: options, saved: { file in
            context.out(file.path + "\n")
            after.saved(file)
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

    /// The mode of a recording cut into files: segments (`--segment`), events
    /// (`--pre/--post`) or both, each file reported as it closes and told to the hooks.
    private func recordingMode(_ context: CommandContext, album: String?, after: FollowUps) -> RecordingMode {
        var name: (@Sendable (Date) -> String)?
        if let template = options.nameTemplate {
            name = { date in NameTemplate.expand(template, at: date) }
        }
        func series(events: Bool) -> FileSeries {
            let kind = events ? "event" : "segment"
            var series = FileSeries(name: name, closed: { segment in
                EndReport.report(segment, kind: kind, context)
                if let saved = segment.savedPath {
                    after.saved(SavedFile(path: saved, album: album, kind: events ? .event : .segment, id: segment.id, duration: segment.duration))
                }
                if events { after.happened(.eventEnded(segment)) }
            }, reclaimed: { path in
                context.err("vidrec: removed older recording \(path) to stay above the --min-free floor\n")
            })
            if events { series.opened = { index, id, start in after.happened(.eventStarted(index: index, id: id, start: start)) } }
            return series
        }
        let events = options.events.map { EventSettings(pre: $0.pre, post: $0.post) }
        let segments = options.segment.map { SegmentSettings(seconds: $0, atClock: options.segmentAtClock) }
        switch (segments, events) {
        case let (segments?, events?): return .segmentsAndEvents(segments, series(events: false), events, events: series(events: true))
        case let (segments?, nil): return .segments(segments, series(events: false))
        case let (nil, events?): return .events(events, series(events: true))
        case (nil, nil): return .singleFile
        }
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
}
