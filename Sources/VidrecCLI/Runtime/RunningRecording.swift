import VidrecCore
import VidrecMedia
import VidrecSystem

/// Finds the running recording a command acts on (`switch`, and the ``RecordingControls``: `trigger`, `pause`, `resume`): the one called
/// `id`, or the only one running.
enum RunningRecording {
    /// The `[<id>]` argument of the commands that act on a running recording.
    static let idArgument = ArgumentKey.positional("id", optional: true, help: "The recording; needed when several are running.")

    /// - Parameters:
    ///   - start: how to start one, for the message when none runs.
    ///   - usage: how to name one, for the message when several run.
    /// - Throws: ``CLIError`` (66 when there is none or no such one, 64 when several
    ///   run and `id` is `nil`).
    static func find(_ id: String?, in store: RecordingStore, start: String, usage: String) throws -> RecordingStore.Entry {
        let running = store.runningRecordings()
        if let id {
            guard let entry = running.first(where: { $0.id == id }) else {
                throw CLIError("no running recording '\(id)'" + (running.isEmpty ? "; nothing is recording" : "; running: \(running.map(\.id).joined(separator: ", "))"), .noInput)
            }
            return entry
        }
        guard let only = running.first else {
            throw CLIError("no recording in progress; start one with '\(start)'", .noInput)
        }
        guard running.count == 1 else {
            let list = running.map { "\($0.id) (\($0.sidecar.camera))" }.joined(separator: ", ")
            throw CLIError("\(running.count) recordings are running: \(list); say which with '\(usage)'", .usage)
        }
        return only
    }

    /// Sends `request` to the running recording `target` over its control socket
    /// (`trigger`, `pause`, `resume`).
    ///
    /// - Throws: ``CLIError``: 75 when it does not answer; its own error, with the exit
    ///   code it gives, when it refuses.
    static func ask(_ request: ControlRequest, of target: RecordingStore.Entry) throws -> ControlReply {
        let reply: ControlReply
        do {
            reply = try ControlClient.send(request, to: target.controlPath, timeout: 10)
        } catch {
            throw CLIError("recording \(target.id) (pid \(target.sidecar.pid)) did not answer (\(error))", .temporaryFailure)
        }
        if let error = reply.error {
            throw CLIError("recording \(target.id): \(error)", reply.exitCode.flatMap(ExitCode.init(rawValue:)) ?? .failure)
        }
        return reply
    }
}
