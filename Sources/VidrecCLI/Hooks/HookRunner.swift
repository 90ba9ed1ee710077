import Foundation
import Glibc
import Synchronization
import VidrecSystem

/// Runs the hooks of one `vidrec start`, one at a time, on the `vidrec.hooks` thread:
/// capture never waits for a hook. Hooks wait in a queue of at most ``capacity``; when
/// it is full, a new one is dropped and counted (said at the end).
///
/// Each hook runs without a shell (``HookCommandLine``), with standard input from
/// `/dev/null`, vidrec's environment and the facts of what happened (`VIDREC_EVENT`,
/// `VIDREC_FILE`, …). Its output, standard output and error together, goes to the log
/// line by line, as `vidrec: hook on-saved: …`; its exit status is logged when it ends.
/// One that runs past the time limit gets SIGTERM, and SIGKILL 2 s later; whatever it
/// started and left running is its own.
final class HookRunner: Sendable {
    /// One hook to run.
    struct Job: Sendable {
        /// The option that asked for it, without dashes: `on-saved`.
        var name: String
        var command: HookCommandLine
        /// The variables it gets beside vidrec's own environment.
        var facts: [String: String]
    }

    /// How many hooks may wait while one runs.
    static let capacity = 16

    private struct State {
        var queue: [Job] = []
        var finishing = false
        var stopped = false
        var dropped = 0
        var failed = 0
    }

    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)
    private let timeLimit: Double
    private let environment: [String: String]
    private let log: @Sendable (String) -> Void
    private let failure: @Sendable (String) -> Void
    private let thread = Mutex<NamedThread?>(nil)

    /// Starts the thread.
    ///
    /// - Parameters:
    ///   - timeLimit: seconds a hook may run.
    ///   - environment: vidrec's own, which each hook inherits.
    ///   - log: where hooks' output and ends go (a whole line).
    ///   - failure: where a hook that fails is told, also with `--quiet` (a whole line).
    init(timeLimit: Double, environment: [String: String], log: @escaping @Sendable (String) -> Void,
         failure: @escaping @Sendable (String) -> Void) {
        self.timeLimit = timeLimit
        self.environment = environment
        self.log = log
        self.failure = failure
        thread.withLock { $0 = NamedThread(name: "vidrec.hooks") { [self] in work() } }
    }

    /// Queues `job`; never waits.
    ///
    /// - Returns: whether it was queued (not when the queue is full, or the runner is
    ///   finishing or stopped: it is then counted as dropped).
    @discardableResult
    func submit(_ job: Job) -> Bool {
        let queued = state.withLock { state in
            guard !state.stopped, state.queue.count < Self.capacity else {
                state.dropped += 1
                return false
            }
            state.queue.append(job)
            return true
        }
        if queued { ready.signal() }
        return queued
    }

    /// Whether the runner is running what was queued before the recording ended.
    var isFinishing: Bool { state.withLock { $0.finishing && !$0.stopped } }

    /// Runs what is queued (each within the time limit), then ends the thread.
    ///
    /// - Returns: how many hooks were dropped and how many failed.
    func finish() -> (dropped: Int, failed: Int) {
        state.withLock { $0.finishing = true }
        ready.signal()
        thread.withLock { $0 }?.join()
        thread.withLock { $0 = nil }
        return state.withLock { ($0.dropped, $0.failed) }
    }

    /// Drops what is queued and ends the running hook: SIGTERM, and SIGKILL 2 s later.
    func stop() {
        state.withLock { state in
            state.stopped = true
            state.dropped += state.queue.count
            state.queue.removeAll()
        }
        ready.signal()
    }

    private func work() {
        while true {
            ready.wait()
            let next = state.withLock { state -> Job?? in
                if !state.queue.isEmpty, !state.stopped { return state.queue.removeFirst() }
                return state.finishing || state.stopped ? .some(nil) : nil
            }
            guard let next else { continue }
            guard let job = next else { return }
            if !run(job) { state.withLock { $0.failed += 1 } }
        }
    }

    /// The program to run: a path as it is, a name found in `PATH`.
    private func program(_ name: String, in environment: [String: String]) -> String? {
        if name.contains("/") { return name }
        let path = environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// How a hook's run ended, besides its exit status.
    private enum Stop {
        /// It ended by itself.
        case none
        /// It ran past the time limit: SIGTERM after this many seconds.
        case timeLimit(Double)
        /// vidrec was stopping (``stop()``).
        case interrupted
    }

    /// Runs one hook to its end or its time limit.
    ///
    /// - Returns: whether it exited with status 0.
    private func run(_ job: Job) -> Bool {
        let environment = self.environment.merging(job.facts) { _, fact in fact }
        let arguments = job.command.arguments(in: environment)
        let label = "hook \(job.name) (\((arguments[0] as NSString).lastPathComponent))"
        guard let program = program(arguments[0], in: environment) else {
            failure("vidrec: \(label) did not run: there is no program \(arguments[0]) in PATH; give its full path\n")
            return false
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = Array(arguments.dropFirst())
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let exit = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exit.signal() }
        let began = MonotonicClock.now()
        do {
            try process.run()
        } catch {
            failure("vidrec: \(label) did not run: \(program): \(error.localizedDescription)\n")
            return false
        }
        var lines = HookOutputLines { [log] line in log("vidrec: \(label): \(line)\n") }
        let stop = watch(process, exit: exit, output: FileDescriptor(rawValue: output.fileHandleForReading.fileDescriptor),
                         since: began, lines: &lines)
        process.waitUntilExit()
        lines.end()
        return report(process, label: label, stop: stop, seconds: Double(MonotonicClock.now() - began) / 1e9)
    }

    /// Logs the hook's output until it ends (and its output has ended, or it has
    /// nothing more to read), stopping it at the time limit or when vidrec stops.
    private func watch(_ process: Process, exit: DispatchSemaphore, output descriptor: FileDescriptor, since began: Int64,
                       lines: inout HookOutputLines) -> Stop {
        let handle = try? ProcessHandle(pid: process.processIdentifier)
        var stop = Stop.none
        // When it was sent SIGTERM.
        var killedAt: Double?
        var buffer = [UInt8](repeating: 0, count: 4096)
        var outputOpen = true
        var exited = false
        while true {
            let now = Double(MonotonicClock.now() - began) / 1e9
            if killedAt == nil, state.withLock({ $0.stopped }) || now >= timeLimit {
                killedAt = now
                stop = now >= timeLimit ? .timeLimit(now) : .interrupted
                try? handle?.send(SIGTERM)
            } else if let killed = killedAt, now >= killed + 2 {
                try? handle?.send(SIGKILL)
            }
            if !exited { exited = exit.wait(timeout: .now()) == .success }
            // What it started may write on past its end, but not past its time limit.
            if exited, killedAt != nil { break }
            guard outputOpen else {
                // Its output has ended; it has not yet.
                if exited || exit.wait(timeout: .now() + 0.1) == .success { break }
                continue
            }
            let events = (try? descriptor.poll(Int16(POLLIN), orWake: nil, milliseconds: exited ? 0 : 100, "hook output")) ?? 0
            if events != 0 {
                let count = (try? buffer.withUnsafeMutableBytes { try descriptor.read(into: $0.baseAddress!, count: $0.count, "hook output") }) ?? 0
                if count > 0 { lines.add(buffer[..<count]) } else { outputOpen = false }
                continue
            }
            // It ended; what it started may keep the pipe open, and is not waited for.
            if exited { break }
        }
        return stop
    }

    /// Tells how the hook ended: to the log when it succeeded, else as a failure.
    ///
    /// - Returns: whether it exited with status 0.
    private func report(_ process: Process, label: String, stop: Stop, seconds: Double) -> Bool {
        let after = String(format: "%.1f s", seconds)
        switch (stop, process.terminationReason, process.terminationStatus) {
        case (.interrupted, _, _):
            failure("vidrec: \(label) was stopped, as vidrec was\n")
        case (.timeLimit(let killedAt), _, _):
            failure("vidrec: \(label) was stopped after \(String(format: "%.0f", killedAt)) s, its time limit (--hook-timeout)\n")
        case (.none, .exit, 0):
            log("vidrec: \(label) exited with status 0 after \(after)\n")
            return true
        case (.none, .exit, let status):
            failure("vidrec: \(label) failed: it exited with status \(status) after \(after)\n")
        case (.none, _, let signal):
            failure("vidrec: \(label) failed: it was killed by signal \(signal) after \(after)\n")
        }
        return false
    }
}
