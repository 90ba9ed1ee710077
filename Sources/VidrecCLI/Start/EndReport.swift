import Foundation
import VidrecCore
import VidrecMedia
import VidrecSystem

/// What `vidrec start` says of a recording: the end line and its exit code, each
/// segment or event as it closes, and the camera's comings and goings.
struct EndReport {
    /// Whether the files are events (`--pre/--post`), not segments.
    var waitsForTriggers: Bool
    /// Whether the recording is saved (`--save`).
    var saves: Bool

    /// The end of the recording, in words and an exit code: a failure on stderr even
    /// with --quiet; else the end line, what was left behind, and the saved path on
    /// standard output (told to the parts that follow saved files, as --upload).
    func render(_ result: RecordingReport, _ context: CommandContext, failure report: (String, ExitCode) -> Void,
                followSaved: (String) -> Void) -> ExitCode {
        let outcome = result.outcome
        let summary = EndReport.summary(result)
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
        if waitsForTriggers, result.segments.isEmpty {
            context.err("vidrec: no trigger came; nothing was recorded\n")
            return .success
        }
        if !result.segments.isEmpty {
            for (files, kind) in [(result.segments, waitsForTriggers ? "event" : "segment"), (result.events, "event")] where !files.isEmpty {
                let one = files.count == 1
                let which = one ? files[0] : "\(files.first!) to \(files.last!)"
                let saved = saves ? "saved" : one ? "pending; keep it with 'vidrec save \(files[0])'" : "pending; keep them with 'vidrec save ID'"
                context.err("vidrec: \(files.count) \(kind)\(one ? "" : "s"), \(which), \(saved)\n")
            }
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

    /// The end line's words for the times the camera was gone: `camera gone
    /// 12:03:04-12:03:09 (5.2 s; 78 frames hold its last picture; back once)`, each
    /// gap in local time, then their total.
    static func cameraGaps(_ outcome: RecordingOutcome) -> String {
        "camera gone " + spans(outcome.cameraGaps)
            + String(format: "(%.1f s; %lld frames hold its last picture; back %@)", total(outcome.cameraGaps),
                     outcome.cameraGapFrames, times(outcome.cameraReturns))
    }

    /// The same for the microphone: `microphone gone 12:03:04-12:03:09 (5.2 s of
    /// silence; back once)`.
    static func microphoneGaps(_ outcome: RecordingOutcome) -> String {
        "microphone gone " + spans(outcome.microphoneGaps)
            + String(format: "(%.1f s of silence; back %@)", total(outcome.microphoneGaps), times(outcome.microphoneReturns))
    }

    /// Each gap's start and end in local time, and a space; empty without times.
    private static func spans(_ gaps: [DeviceGap]) -> String {
        let spans = gaps.compactMap { gap in
            gap.startTime.flatMap { start in
                DateText.local("%H:%M:%S", start).map { "\($0)-\(DateText.local("%H:%M:%S", start + gap.seconds) ?? "")" }
            }
        }
        return spans.isEmpty ? "" : spans.joined(separator: ", ") + " "
    }

    private static func total(_ gaps: [DeviceGap]) -> Double { gaps.reduce(0) { $0 + $1.seconds } }

    private static func times(_ returns: Int) -> String {
        returns == 0 ? "never" : returns == 1 ? "once" : "\(returns) times"
    }

    /// The message for a camera or a microphone that went, came back or was given up on.
    static func reconnectionLine(for event: ReconnectionEvent, window: Rational) -> String {
        switch event {
        case let .lost(kind, device, reason):
            "vidrec: \(noun(kind)) \(device) is gone: \(reason); waiting up to \(window) s for it to come back (--reconnect)"
        case let .back(kind, device, after):
            String(format: "vidrec: %@ %@ is back after %.1f s; ", noun(kind), device, after)
                + (kind == .audio ? "silence holds the gap" : "its last picture holds the gap")
        case let .gaveUp(kind, device, after, lastTry):
            String(format: "vidrec: %@ %@ did not come back within %.0f s", noun(kind), device, after)
                + (lastTry.map { " (the last try to open it: \($0))" } ?? "")
        }
    }

    private static func noun(_ kind: MediaKind) -> String { kind == .audio ? "microphone" : "camera" }

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
            summary += ", " + EndReport.cameraGaps(outcome)
        }
        if !outcome.microphoneGaps.isEmpty { summary += ", " + EndReport.microphoneGaps(outcome) }
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
