import Foundation
import Glibc
import Testing
@testable import VidrecCLI
import VidrecSystem

/// The preview's claim on a camera, between processes: only the process that holds the
/// claim's lock is asked to lend the camera; a claim nobody holds, or one whose name
/// says another process, makes nobody a signal.
@Suite(.serialized) struct PreviewClaimTests {
    static let camera = "/dev/video7"

    /// A process that holds a claim in `folder` as vidrec serve does (a write lock on
    /// it), named for the PID given (its own, unless told), and removes it and ends when
    /// asked to lend (SIGUSR1, which it unblocks: see ``bystander()``). Started when it
    /// says it holds it.
    final class Holder {
        let process = Process()
        let output = Pipe()

        init(folder: String, namedFor pid: Int32? = nil) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", """
                import fcntl, os, signal, sys
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1})
                folder, camera, named = sys.argv[1], sys.argv[2], sys.argv[3]
                path = f"{folder}/preview-{named or os.getpid()}.claim"
                with open(path, "w") as claim: claim.write(camera + "\\n")
                fd = os.open(path, os.O_RDWR)
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                def lend(signal_number, frame):
                    os.unlink(path)
                    sys.exit(0)
                signal.signal(signal.SIGUSR1, lend)
                print("holding", flush=True)
                while True: signal.pause()
                """, folder, PreviewClaimTests.camera, pid.map(String.init) ?? ""]
            process.standardOutput = output
            try process.run()
            // Its first word, whether "holding" comes with its newline or without it.
            let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            try #require(line.hasPrefix("holding"), "the holder said '\(line)'")
        }

        var pid: Int32 { process.processIdentifier }

        deinit { Self.end(process) }

        /// Ends `process` (SIGKILL: it inherited SIGTERM blocked) and waits for it.
        static func end(_ process: Process) {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
    }

    /// A process that must never be signalled: SIGUSR1 would end it. (A child inherits
    /// the signals the test's thread blocks, SIGUSR1 among them under libdispatch: it
    /// unblocks it, and says so once it has.)
    static func bystander() throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", """
            import signal
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1})
            print("waiting", flush=True)
            while True: signal.pause()
            """]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        try #require(line.hasPrefix("waiting"), "the bystander said '\(line)'")
        return process
    }

    @Test func theServerHoldingTheClaimIsAskedAndLends() throws {
        let folder = try TemporaryFolder()
        let holder = try Holder(folder: folder.path)
        let claim = folder.path + "/preview-\(holder.pid).claim"
        #expect(FileManager.default.fileExists(atPath: claim))
        #expect(PreviewClaim.askToLend("/dev/video9", in: folder.path).isEmpty, "another camera's claim is not asked")
        #expect(holder.process.isRunning)
        #expect(PreviewClaim.askToLend(Self.camera, in: folder.path) == [holder.pid])
        holder.process.waitUntilExit()
        #expect(holder.process.terminationStatus == 0 && !FileManager.default.fileExists(atPath: claim))
    }

    /// A claim left by a killed server names a PID that another process may have now:
    /// nobody holds its lock, so it is removed and nobody is signalled.
    @Test func aStaleClaimIsRemovedAndItsPIDNeverSignalled() throws {
        let folder = try TemporaryFolder()
        let bystander = try Self.bystander()
        defer { Holder.end(bystander) }
        let claim = folder.path + "/preview-\(bystander.processIdentifier).claim"
        try Data((Self.camera + "\n").utf8).write(to: URL(fileURLWithPath: claim))
        #expect(PreviewClaim.askToLend(Self.camera, in: folder.path).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: claim))
        #expect(bystander.isRunning)
    }

    /// A claim held by one process but named for another: neither is signalled.
    @Test func aClaimNamedForAnotherProcessSignalsNobody() throws {
        let folder = try TemporaryFolder()
        let bystander = try Self.bystander()
        defer { Holder.end(bystander) }
        let holder = try Holder(folder: folder.path, namedFor: bystander.processIdentifier)
        #expect(PreviewClaim.askToLend(Self.camera, in: folder.path, timeout: 0).isEmpty)
        #expect(bystander.isRunning && holder.process.isRunning)
    }

    /// vidrec's own claim holds its lock until it is removed.
    @Test func aClaimMadeHereIsLockedUntilRemoved() throws {
        let folder = try TemporaryFolder()
        let claim = try PreviewClaim.make(camera: Self.camera, in: folder.path + "/vidrec")
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        reader.arguments = ["-c", """
            import fcntl, os, struct, sys
            fd = os.open(sys.argv[1], os.O_RDONLY)
            query = struct.pack("hhqqi", fcntl.F_RDLCK, 0, 0, 0, 0)
            answer = fcntl.fcntl(fd, fcntl.F_GETLK, query)
            print(struct.unpack("hhqqi", answer)[4])
            """, claim.path]
        let output = Pipe()
        reader.standardOutput = output
        try reader.run()
        let holder = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        #expect(holder == "\(getpid())\n")
        claim.remove()
        #expect(!FileManager.default.fileExists(atPath: claim.path))
    }
}

/// A folder of its own under the temporary folder, removed at the end.
final class TemporaryFolder {
    let path = NSTemporaryDirectory() + "vidrec-claim-\(UUID().uuidString)"
    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}
