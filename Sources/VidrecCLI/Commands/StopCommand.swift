import Foundation
import Glibc
import VidrecCore
import VidrecMedia
import VidrecSystem

/// `vidrec stop [ID]`: ask the running recording to finish, and wait until its file is final.
struct StopCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let id = ArgumentKey.positional("id", optional: true, help: "The recording to stop; needed when several are running.")
        static let all = ArgumentKey.flag("all", help: "Stop every running recording.")
        static let timeout = ArgumentKey.option("timeout", value: "duration", help: "How long to wait for the file to be final. (default: 60)")
    }

    static let spec = CommandSpec(
        name: "stop",
        abstract: "Stop the running recording and wait until its file is final.",
        discussion: """
        Sends SIGTERM to the recording process after confirming, through the lock it \
        holds and /proc, that it is a vidrec recording, then waits for it to finish.
        """,
        arguments: [
            Key.id.spec,
            Key.all.spec,
            Key.timeout.spec,
        ])

    var id: String?
    var all: Bool
    var timeout: Double

    init(_ arguments: ParsedArguments) throws(ParserError) {
        id = arguments[Key.id]
        all = arguments[Key.all]
        if id != nil, all { throw .conflicting("<id>", "--all") }
        timeout = 60
        if let text = arguments[Key.timeout] {
            guard let value = Rational(duration: text), value > Rational(0), value <= Rational(3600) else {
                throw .invalidValue(text, for: "--timeout <duration>", reason: "give a length greater than 0 and at most 1 h, such as 60 (seconds), 90s or 5m")
            }
            timeout = value.doubleValue
        }
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        let running = store.runningRecordings()
        let targets: [RecordingStore.Entry]
        if let id {
            guard let entry = running.first(where: { $0.id == id }) else {
                throw CLIError("no running recording '\(id)'" + (running.isEmpty ? "; nothing is recording" : "; running: \(running.map(\.id).joined(separator: ", "))"), .noInput)
            }
            targets = [entry]
        } else {
            targets = running
        }
        guard !targets.isEmpty else {
            throw CLIError("no recording in progress; start one with 'vidrec start'", .noInput)
        }
        if targets.count > 1, !all {
            let list = targets.map { "\($0.id) (\($0.sidecar.camera), pid \($0.sidecar.pid))" }.joined(separator: ", ")
            throw CLIError("\(targets.count) recordings are running: \(list); say which with 'vidrec stop ID', or stop them all with --all", .usage)
        }
        for entry in targets {
            let pid = entry.sidecar.pid
            guard StopCommand.isVidrec(pid: pid) else {
                throw CLIError("recording \(entry.id) is locked but pid \(pid) is not a vidrec process; not signalling it", .temporaryFailure)
            }
            do { try FileSystem.signal(pid, SIGTERM) } catch {
                throw CLIError("cannot signal recording \(entry.id) (pid \(pid)): \(error.reason)", .temporaryFailure)
            }
        }
        let deadline = MonotonicClock.now() + Int64(timeout * 1e9)
        for entry in targets {
            // A continuous recording closes and opens segments until it ends: wait for
            // the process, not for one segment.
            while RecordingLock.isHeld(entry.lockPath) || store.runningRecordings().contains(where: { $0.sidecar.pid == entry.sidecar.pid }) {
                guard MonotonicClock.now() < deadline else {
                    throw CLIError("recording \(entry.id) did not finish within \(Int(timeout)) s; it is still running (pid \(entry.sidecar.pid))", .temporaryFailure)
                }
                MonotonicClock.sleep(until: MonotonicClock.now() + 50_000_000)
            }
            if let finished = try? store.entry(id: entry.id) {
                let duration = String(format: "%.3f s", finished.sidecar.duration ?? 0)
                context.out("stopped \(entry.id): \(duration), \(finished.state.rawValue); keep it with 'vidrec save'\n")
            } else {
                context.out("stopped \(entry.id); it was saved to the album\n")
            }
        }
        return .success
    }

    /// Whether `pid` is a running vidrec (its executable's name), so that a stale PID now
    /// used by another program is never signalled.
    static func isVidrec(pid: Int32) -> Bool {
        guard pid > 0, let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else { return false }
        return comm.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("vidrec")
    }
}
