import Foundation
import Glibc
import Synchronization
import Testing
@testable import VidrecCLI

/// The hooks' own thread: what they are told, what is logged, the time limit, and the
/// bounded queue that never makes the recording wait.
@Suite struct HookRunnerTests {
    /// Lines told to the log and as failures.
    final class Lines: Sendable {
        let log = Mutex<[String]>([])
        let failures = Mutex<[String]>([])
        var all: String { (log.withLock { $0 } + failures.withLock { $0 }).joined() }
    }

    static func runner(_ lines: Lines, timeLimit: Double = 30) -> HookRunner {
        HookRunner(timeLimit: timeLimit, environment: ["PATH": "/usr/bin:/bin", "KEPT": "yes"],
                   log: { line in lines.log.withLock { $0.append(line) } },
                   failure: { line in lines.failures.withLock { $0.append(line) } })
    }

    static func job(_ command: String, facts: [String: String] = [:]) throws -> HookRunner.Job {
        HookRunner.Job(name: "on-saved", command: try HookCommandLine(parsing: command), facts: facts)
    }

    @Test func aHookGetsItsFactsAndVidrecsEnvironmentAndItsOutputAndStatusAreLogged() throws {
        let lines = Lines()
        let runner = Self.runner(lines)
        runner.submit(try Self.job(#"sh -c 'printf "%s|%s|%s\n" "$VIDREC_FILE" "$KEPT" "$1"; echo second' hook $VIDREC_FILE"#,
                                   facts: ["VIDREC_FILE": "/a b/c.mp4"]))
        let (dropped, failed) = runner.finish()
        #expect(dropped == 0 && failed == 0, "\(lines.all)")
        let log = lines.log.withLock { $0 }
        #expect(log.count == 3, "\(log)")
        #expect(log.first == "vidrec: hook on-saved (sh): /a b/c.mp4|yes|/a b/c.mp4\n")
        #expect(log.dropFirst().first == "vidrec: hook on-saved (sh): second\n")
        #expect(log.last?.hasPrefix("vidrec: hook on-saved (sh) exited with status 0 after ") == true, "\(log)")
    }

    @Test func aFailingHookIsToldWithItsStatus() throws {
        let lines = Lines()
        let runner = Self.runner(lines)
        runner.submit(try Self.job("sh -c 'echo no such thing >&2; exit 3'"))
        runner.submit(try Self.job("no-such-hook-program --flag"))
        runner.submit(try Self.job("/no/such/hook"))
        let (_, failed) = runner.finish()
        #expect(failed == 3)
        let failures = lines.failures.withLock { $0 }
        #expect(lines.log.withLock { $0 } == ["vidrec: hook on-saved (sh): no such thing\n"])
        #expect(failures.count == 3, "\(failures)")
        #expect(failures.first?.hasPrefix("vidrec: hook on-saved (sh) failed: it exited with status 3 after ") == true, "\(failures)")
        #expect(failures.dropFirst().first == "vidrec: hook on-saved (no-such-hook-program) did not run: there is no program no-such-hook-program in PATH; give its full path\n")
        #expect(failures.last?.hasPrefix("vidrec: hook on-saved (hook) did not run: /no/such/hook: ") == true, "\(failures)")
    }

    @Test func aHookPastItsTimeLimitIsStoppedAndTheNextRuns() throws {
        let lines = Lines()
        let runner = Self.runner(lines, timeLimit: 1)
        // It ignores SIGTERM: SIGKILL ends it 2 s later.
        runner.submit(try Self.job("sh -c 'trap \"\" TERM; echo started; while :; do sleep 1; done'"))
        runner.submit(try Self.job("echo next"))
        let (dropped, failed) = runner.finish()
        #expect(dropped == 0 && failed == 1)
        #expect(lines.failures.withLock { $0 } == ["vidrec: hook on-saved (sh) was stopped after 1 s, its time limit (--hook-timeout)\n"])
        let log = lines.log.withLock { $0 }
        #expect(log.first == "vidrec: hook on-saved (sh): started\n", "\(log)")
        #expect(log.contains("vidrec: hook on-saved (echo): next\n"), "\(log)")
    }

    @Test func aFullQueueDropsNewHooksAtOnceAndCountsThem() throws {
        let lines = Lines()
        let runner = Self.runner(lines)
        // The first hook holds the thread until the test lets it go.
        let gate = NSTemporaryDirectory() + "vidrec-hook-gate-\(UUID().uuidString)"
        #expect(mkfifo(gate, 0o600) == 0)
        defer { unlink(gate) }
        runner.submit(try Self.job("sh -c 'read line < \"$1\"' hook " + gate))
        var queued = 0
        for _ in 0..<(HookRunner.capacity + 5) where runner.submit(try Self.job("true")) { queued += 1 }
        // Whether or not the thread took the first one yet, at most capacity + 1 wait.
        #expect(queued >= HookRunner.capacity - 1 && queued <= HookRunner.capacity, "\(queued)")
        let opened = open(gate, O_WRONLY)
        #expect(opened >= 0)
        _ = write(opened, "go\n", 3)
        close(opened)
        let (dropped, failed) = runner.finish()
        #expect(failed == 0, "\(lines.all)")
        #expect(dropped == HookRunner.capacity + 5 - queued)
        #expect(lines.log.withLock { $0 }.filter { $0.contains("exited with status 0") }.count == queued + 1)
    }

    @Test func stoppingEndsTheRunningHookAndDropsTheWaitingOnes() throws {
        let lines = Lines()
        let runner = Self.runner(lines)
        runner.submit(try Self.job("sh -c 'echo running; exec sleep 60'"))
        for _ in 0..<3 { runner.submit(try Self.job("true")) }
        // Waits for the hook to be running: its first line is logged.
        while !lines.log.withLock({ $0.contains("vidrec: hook on-saved (sh): running\n") }) { usleep(1000) }
        runner.stop()
        let (dropped, failed) = runner.finish()
        #expect(dropped == 3 && failed == 1, "\(lines.all)")
        #expect(lines.failures.withLock { $0 } == ["vidrec: hook on-saved (sh) was stopped, as vidrec was\n"], "\(lines.all)")
    }
}
