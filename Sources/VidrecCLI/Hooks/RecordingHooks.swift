import Foundation
import Synchronization
import VidrecCore

/// `--on-saved`, `--on-event` and `--on-failure` on `vidrec start`: commands run on what
/// happens to the recording, on their own thread (``HookRunner``), with the facts in
/// their environment:
///
/// | variable | what it holds |
/// |---|---|
/// | `VIDREC_EVENT` | `saved`, `event-start`, `event-end`, `failed` or `camera-gone` |
/// | `VIDREC_FILE` | the saved file (`saved`, and `event-end` of a saved event) |
/// | `VIDREC_KIND` | `recording`, `segment`, `event` or `photo` (`saved`) |
/// | `VIDREC_ID` | the pending ID of the file, or of the recording |
/// | `VIDREC_PRESET` | the preset recorded |
/// | `VIDREC_CAMERA` | the camera recorded (once the recording started) |
/// | `VIDREC_DURATION` | the movie's length in seconds, as it plays |
/// | `VIDREC_REASON` | why it failed, or why the camera went |
/// | `VIDREC_EXIT_CODE` | the exit code vidrec ends with (`failed`) |
/// | `VIDREC_TIME` | when it happened (an event: when its media starts), ISO 8601 |
/// | `VIDREC_ALBUM` | the album the file was saved to |
final class RecordingHooks: FollowUp {
    /// The commands, each `nil` when not asked for.
    struct Commands: Sendable {
        var saved: HookCommandLine?
        var event: HookCommandLine?
        var failure: HookCommandLine?
    }

    private let commands: Commands
    private let runner: HookRunner
    private let preset: String
    private let failure: @Sendable (String) -> Void
    private let recording = Mutex<(id: String, camera: String)?>(nil)

    /// Starts the hooks' thread.
    ///
    /// - Parameters:
    ///   - log: where hooks' output and exit statuses go (quiet with `--quiet`).
    ///   - failure: where failing or dropped hooks are told (also with `--quiet`).
    init(_ commands: Commands, timeLimit: Double, preset: String, environment: [String: String],
         log: @escaping @Sendable (String) -> Void, failure: @escaping @Sendable (String) -> Void) {
        self.commands = commands
        self.preset = preset
        self.failure = failure
        runner = HookRunner(timeLimit: timeLimit, environment: environment, log: log, failure: failure)
    }

    /// Queues `command` with `facts` and the facts every hook gets.
    private func run(_ command: HookCommandLine?, _ name: String, _ facts: [String: String?], time: Date = Date()) {
        guard let command else { return }
        var all = ["VIDREC_PRESET": preset, "VIDREC_TIME": DateText.iso8601(time)]
        if let (id, camera) = recording.withLock({ $0 }) {
            all["VIDREC_ID"] = id
            all["VIDREC_CAMERA"] = camera
        }
        for case let (key, value?) in facts { all[key] = value }
        if !runner.submit(HookRunner.Job(name: name, command: command, facts: all)) {
            failure("vidrec: hook \(name) for \(all["VIDREC_EVENT"] ?? "") was dropped: \(HookRunner.capacity) hooks are already waiting (it is counted at the end)\n")
        }
    }

    private static func seconds(_ duration: Double?) -> String? { duration.map { String(format: "%.3f", $0) } }

    func saved(_ file: SavedFile) {
        run(commands.saved, "on-saved", ["VIDREC_EVENT": "saved", "VIDREC_FILE": file.path, "VIDREC_KIND": file.kind.rawValue,
                                         "VIDREC_ID": file.id, "VIDREC_DURATION": Self.seconds(file.duration), "VIDREC_ALBUM": file.album])
    }

    func happened(_ happening: RecordingHappening) {
        switch happening {
        case let .started(id, camera):
            recording.withLock { $0 = (id, camera) }
        case let .eventStarted(index, id, start):
            run(commands.event, "on-event", ["VIDREC_EVENT": "event-start", "VIDREC_ID": id, "VIDREC_INDEX": "\(index + 1)"], time: start)
        case let .eventEnded(report):
            run(commands.event, "on-event", ["VIDREC_EVENT": "event-end", "VIDREC_ID": report.id, "VIDREC_INDEX": "\(report.index + 1)",
                                             "VIDREC_FILE": report.savedPath, "VIDREC_DURATION": Self.seconds(report.duration),
                                             "VIDREC_REASON": report.problem])
        case let .cameraGone(camera, reason):
            run(commands.failure, "on-failure", ["VIDREC_EVENT": "camera-gone", "VIDREC_CAMERA": camera, "VIDREC_REASON": reason])
        case let .microphoneGone(microphone, reason):
            run(commands.failure, "on-failure", ["VIDREC_EVENT": "microphone-gone", "VIDREC_MICROPHONE": microphone,
                                                 "VIDREC_REASON": reason])
        case let .failed(reason, exitCode):
            run(commands.failure, "on-failure", ["VIDREC_EVENT": "failed", "VIDREC_REASON": reason, "VIDREC_EXIT_CODE": "\(exitCode)"])
        case .cameraBack, .microphoneBack, .paused:
            break
        }
    }

    var isFinishing: Bool { runner.isFinishing }

    func interrupt() -> String {
        runner.stop()
        return "stopping the hook that runs; the hooks still waiting are dropped"
    }

    /// Runs the hooks still waiting; a hook's failure is told, and does not change the
    /// command's exit code.
    func finish() -> String? {
        let (dropped, _) = runner.finish()
        if dropped > 0 {
            failure("vidrec: \(dropped) hook\(dropped == 1 ? " was" : "s were") not run: their queue was full, or vidrec was stopping\n")
        }
        return nil
    }

    /// The recording failed or never started: the hooks still waiting run (the
    /// `--on-failure` hook among them), each within its time limit.
    func abandon() { _ = finish() }
}
