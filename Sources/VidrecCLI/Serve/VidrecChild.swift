import Foundation
import Synchronization
import VidrecSystem

/// A vidrec command that `vidrec serve` runs for a browser, as a child process of the
/// same executable: the page's start, stop, snap, save and discard do exactly what the
/// command line does (the same checks, errors and exit codes), and a recording started
/// from the page is an ordinary recording (`vidrec status` and `vidrec stop` see it,
/// and it outlives the server).
final class VidrecChild: Sendable {
    /// How a finished command went.
    struct Result: Sendable {
        /// Its exit code.
        var code: Int32
        /// Its standard output.
        var out: String
        /// Its standard error.
        var err: String

        /// What it said, in one line: why it failed (its `Error: …` line, without the
        /// prefix), or its `vidrec: …` lines and what it printed (a saved file by its
        /// name), joined by "; ".
        var message: String {
            let lines = err.split(separator: "\n").map(String.init)
            if let error = lines.first(where: { $0.hasPrefix("Error: ") }) { return String(error.dropFirst("Error: ".count)) }
            let said = lines.filter { $0.hasPrefix("vidrec: ") }.map { String($0.dropFirst("vidrec: ".count)) }
            let printed = out.split(separator: "\n").map { $0.hasPrefix("/") ? ($0 as NSString).lastPathComponent : String($0) }
            let all = said + printed
            return all.isEmpty ? (lines.last ?? "exit code \(code)") : all.joined(separator: "; ")
        }

        /// The HTTP status for its exit code: 400 for a usage error, 404 for no such
        /// input, 409 for a busy or unavailable device, 507 for a full disk.
        var httpStatus: Int {
            switch ExitCode(rawValue: code) {
            case .success: 200
            case .usage, .dataError: 400
            case .noInput: 404
            case .unavailable, .temporaryFailure: 409
            case .ioError, .cannotCreate: 507
            default: 500
            }
        }
    }

    private let process: Process
    private let stderr = Mutex<(text: String, ended: Bool)>(("", false))
    private let changed = NSCondition()

    private init(_ executable: String, _ arguments: [String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardError = pipe
        try process.run()
        let reader = pipe.fileHandleForReading
        // The thread holds the child until it has ended and been waited for.
        _ = NamedThread(name: "vidrec.child") { [self] in
            while true {
                let data = reader.availableData
                changed.lock()
                stderr.withLock { state in
                    if data.isEmpty { state.ended = true } else { state.text += String(decoding: data, as: UTF8.self) }
                    // Only the recent past is kept of a recording that runs for days.
                    if state.text.utf8.count > 64 << 10 { state.text = String(state.text.suffix(32 << 10)) }
                }
                changed.broadcast()
                changed.unlock()
                if data.isEmpty { break }
            }
            process.waitUntilExit()
        }
    }

    /// Runs `vidrec arguments` to its end.
    static func run(_ executable: String, _ arguments: [String]) -> Result {
        let out = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = out
        let err = Pipe()
        process.standardError = err
        do { try process.run() } catch {
            return Result(code: ExitCode.software.rawValue, out: "", err: "Error: cannot run \(executable): \(error)")
        }
        // Both pipes are read at once, so that neither fills and holds the child up.
        let errText = Mutex("")
        let reading = NamedThread(name: "vidrec.child") {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errText.withLock { $0 = String(decoding: data, as: UTF8.self) }
        }
        let outText = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reading.join()
        process.waitUntilExit()
        return Result(code: process.terminationStatus, out: outText, err: errText.withLock { $0 })
    }

    /// Starts `vidrec start arguments` and waits until it says it records (its
    /// `vidrec: recording ID …` line) or ends.
    ///
    /// - Returns: `nil` once it records (it runs on, on its own); how it ended, when it
    ///   ended first.
    static func startRecording(_ executable: String, _ arguments: [String]) -> Result? {
        let child: VidrecChild
        do { child = try VidrecChild(executable, ["start"] + arguments) } catch {
            return Result(code: ExitCode.software.rawValue, out: "", err: "Error: cannot run \(executable): \(error)")
        }
        child.changed.lock()
        defer { child.changed.unlock() }
        while true {
            let (text, ended) = child.stderr.withLock { ($0.text, $0.ended) }
            if text.contains("vidrec: recording ") { return nil }
            if ended { break }
            child.changed.wait()
        }
        child.process.waitUntilExit()
        return Result(code: child.process.terminationStatus, out: "", err: child.stderr.withLock { $0.text })
    }
}
