import Foundation
import Glibc
import Testing

/// The built `vidrec` binary, run as a user would run it, in a private HOME with a
/// minimal environment (as under cron).
final class VidrecProcess {
    /// `.build/<triple>/debug/vidrec`, beside the test bundle.
    static var binary: String {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testBinary.deletingLastPathComponent().appendingPathComponent("vidrec").path
    }

    static let presets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("presets").path

    let home: String
    let process = Process()
    let stdout = Pipe()
    let stderr = Pipe()
    private var errText = ""
    private var signaller: ChildSignal?

    init(_ arguments: [String], home: String, environment: [String: String] = [:]) throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build vidrec first: swift build")
        self.home = home
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.environment = ["HOME": home, "PATH": "/usr/bin:/bin"].merging(environment) { $1 }
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        signaller = ChildSignal(process)
    }

    /// Runs to the end and returns status, stdout and stderr.
    static func run(_ arguments: [String], home: String, environment: [String: String] = [:]) throws -> (code: Int32, out: String, err: String) {
        let child = try VidrecProcess(arguments, home: home, environment: environment)
        return child.wait()
    }

    /// Starts `vidrec start` with `arguments`, kills it with SIGKILL once it has recorded
    /// `seconds`, and runs `vidrec recover`; returns what `recover` said.
    static func killAndRecover(_ arguments: [String], after seconds: Double, home: String,
                               environment: [String: String] = [:]) throws -> (code: Int32, out: String, err: String) {
        let child = try VidrecProcess(["start"] + arguments, home: home, environment: environment)
        #expect(child.waitForError(containing: "vidrec: recording"))
        try child.waitUntilRecorded(seconds)
        child.signal(SIGKILL)
        _ = child.wait()
        return try run(["recover"], home: home)
    }

    /// The CPU time the process has used so far, user and system, in seconds (from
    /// `/proc/PID/stat`); `nil` once it has ended.
    var cpuSeconds: Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // After the command's name: state (field 3) … utime (14), stime (15), in ticks.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Reads stderr until a line containing `text` appears (or the process ends). The
    /// timeout only bounds a test that would otherwise hang; it is never what the test
    /// waits for.
    func waitForError(containing text: String, timeout: Double = 180) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        let handle = stderr.fileHandleForReading
        while Date() < deadline {
            let chunk = handle.availableData
            if chunk.isEmpty { return errText.contains(text) }
            errText += String(decoding: chunk, as: UTF8.self)
            if errText.contains(text) { return true }
        }
        return false
    }

    /// What ``waitForError(containing:timeout:)`` has read of stderr so far.
    var errorSoFar: String { errText }

    func wait() -> (code: Int32, out: String, err: String) {
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), errText + String(decoding: err, as: UTF8.self))
    }

    deinit {
        // A test that failed part-way leaves no recording running behind it.
        if process.isRunning { signaller?.send(SIGKILL) }
    }

    /// The process's ID.
    var pid: Int32 { process.processIdentifier }

    /// Sends `number` to this vidrec, and to no other process once it has ended.
    func signal(_ number: Int32) { signaller?.send(number) }

    /// Waits until this recording has recorded at least `seconds` of media, as
    /// `vidrec status --json` reports it (the recording updates it twice a second),
    /// however long a slow or busy machine takes to get there.
    ///
    /// - Returns: the media time reported, or `nil` if the process ended first.
    @discardableResult
    func waitUntilRecorded(_ seconds: Double, environment: [String: String] = [:]) throws -> Double? {
        try Home.waitUntilRecorded(seconds, pid: process.processIdentifier, home: home, environment: environment) {
            self.process.isRunning
        }
    }
}

/// A private HOME for one test, removed afterwards.
final class Home {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "vidrec-e2e-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    var pending: String { path + "/.local/state/vidrec/pending" }
    var album: String { path + "/Videos/vidrec" }
    var photos: String { path + "/Pictures/vidrec" }
    func files(in folder: String, ending suffix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(suffix) }.sorted()
            .map { folder + "/" + $0 }
    }
    /// The newest pending recording's sidecar.
    func sidecar() throws -> [String: Any] {
        let file = try #require(files(in: pending, ending: ".json").last)
        return try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
    }

    /// The PID of the recording started in this home by a process the test does not
    /// hold (under a shell, or `timeout`), once its sidecar exists.
    func recordingPID() -> Int32? {
        Poll.until { () -> Int32? in
            guard let sidecar = files(in: pending, ending: ".json").first,
                  let json = try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sidecar))) as? [String: Any]
            else { return nil }
            return json["pid"] as? Int32
        }
    }

    /// What `vidrec pending --json` says, run as this home's user.
    func pendingRows() throws -> [[String: Any]] {
        let pending = try VidrecProcess.run(["pending", "--json"], home: path)
        return try #require(try JSONSerialization.jsonObject(with: Data(pending.out.utf8)) as? [[String: Any]])
    }

    /// Waits until the recording made by `pid` has recorded at least `seconds` of media,
    /// as `vidrec status --json` reports it (see ``VidrecProcess/waitUntilRecorded``).
    static func waitUntilRecorded(_ seconds: Double, pid: Int32, home: String, environment: [String: String] = [:],
                                  isRunning: () -> Bool) throws -> Double? {
        let recorded = try Poll.until { () throws -> Double? in
            guard isRunning() else { return -1 }
            let status = try VidrecProcess.run(["status", "--json"], home: home, environment: environment)
            let rows = (try? JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [[String: Any]]) ?? []
            let mine = rows.first { ($0["pid"] as? Int).map(Int32.init) == pid }
            guard let duration = mine?["duration"] as? Double, duration >= seconds else { return nil }
            return duration
        }
        guard let recorded, recorded >= 0 else {
            Issue.record("the recording never reached \(seconds) s (it ended, or the wait timed out)")
            return nil
        }
        return recorded
    }

    /// Removed at the end, unless `VIDREC_TEST_KEEP` is set (to look at what a failed
    /// test left behind).
    deinit {
        guard ProcessInfo.processInfo.environment["VIDREC_TEST_KEEP"] == nil else { return }
        try? FileManager.default.removeItem(atPath: path)
    }
}
