import Dispatch
import Foundation
import Synchronization
import VidrecCore

/// Debian's `rclone`, which vidrec hands saved files to (`--upload REMOTE:PATH`): it
/// speaks to S3 and some seventy other stores, reads the user's `rclone config`, and
/// takes every `RCLONE_*` variable from the environment (`RCLONE_BWLIMIT`,
/// `RCLONE_CONFIG`, …).
///
/// vidrec retries with its own durable back-off, so each rclone run makes one attempt.
final class Rclone: Uploading {
    /// The executable.
    let executable: String
    private let environment: [String: String]
    private let running = Mutex<Process?>(nil)

    /// `rclone` from `PATH` in `environment`, or `nil` when it is not installed.
    init?(environment: [String: String]) {
        let folders = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        guard let found = folders.map({ "\($0)/rclone" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return nil
        }
        executable = found
        self.environment = Rclone.childEnvironment(environment)
    }

    /// The environment rclone runs with: the user's, with two changes.
    ///
    /// - Unless the user set them, one attempt per run (`RCLONE_RETRIES=1`), one retry
    ///   of each request (`RCLONE_LOW_LEVEL_RETRIES=2`) and a 60 s idle timeout
    ///   (`RCLONE_TIMEOUT`): vidrec's own queue retries with back-off and survives
    ///   restarts, while rclone's defaults spend over a minute on a server that is down.
    /// - `AWS_CA_BUNDLE` (set on many machines for other tools) is handed over as rclone's
    ///   own `RCLONE_CA_CERT`: the AWS library inside Debian's rclone 1.60 refuses to
    ///   start any S3 transfer while it is set ("LoadCustomCABundleError … unsupported
    ///   transport").
    static func childEnvironment(_ environment: [String: String]) -> [String: String] {
        var child = environment
        for (name, value) in [("RCLONE_RETRIES", "1"), ("RCLONE_LOW_LEVEL_RETRIES", "2"), ("RCLONE_TIMEOUT", "60s")] where child[name] == nil {
            child[name] = value
        }
        if let bundle = child.removeValue(forKey: "AWS_CA_BUNDLE"), !bundle.isEmpty, child["RCLONE_CA_CERT"] == nil {
            child["RCLONE_CA_CERT"] = bundle
        }
        return child
    }

    /// The names of the remotes in the user's rclone configuration (`rclone listremotes`).
    func remotes() throws -> [String] {
        let (status, out, err) = try run(["listremotes"])
        guard status == 0 else { throw UploadError("listremotes", "rclone", Rclone.reason(err, status: status)) }
        return out.split(separator: "\n").map { String($0.hasSuffix(":") ? $0.dropLast() : $0) }
    }

    func copy(_ file: String, to destination: String) throws {
        let (status, _, err) = try run(["copyto"], paths: [file, destination])
        guard status == 0 else { throw UploadError("copy", destination, Rclone.reason(err, status: status)) }
    }

    func verify(_ file: String, against destination: String) throws -> String {
        let remote = try entry(destination, hashType: nil, operation: "verify")
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? -1
        guard remote.isFile else { throw UploadError("verify", destination, "the uploaded copy is not there") }
        guard remote.size == size else {
            throw UploadError("verify", destination, "the uploaded copy has \(remote.size) bytes, the file \(size)")
        }
        let preferred = ["md5", "sha1", "sha256"]
        let type = preferred.first { remote.hashes[$0] != nil } ?? remote.hashes.keys.sorted().first
        let theirs: String
        let hashType: String
        if let type, let value = remote.hashes[type] {
            (theirs, hashType) = (value, type)
        } else {
            // A store that keeps no checksum: read the copy back and hash it here.
            let (status, out, err) = try run(["hashsum", "md5", "--download"], paths: [destination])
            guard status == 0, let value = out.split(separator: " ").first else {
                throw UploadError("verify", destination, "reading the copy back failed: " + Rclone.reason(err, status: status))
            }
            (theirs, hashType) = (String(value), "md5")
        }
        guard let ours = try entry(file, hashType: hashType, operation: "verify").hashes[hashType] else {
            throw UploadError("verify", destination, "rclone gave no \(hashType) of \(file)")
        }
        guard ours.lowercased() == theirs.lowercased() else {
            throw UploadError("verify", destination, "the uploaded copy's \(hashType) is \(theirs), the file's \(ours)")
        }
        return "\(hashType) \(ours)"
    }

    /// Stops the rclone run under way, if any (the job stays queued).
    func interrupt() {
        running.withLock { $0?.terminate() }
    }

    private struct Entry {
        var isFile: Bool
        var size: Int64
        var hashes: [String: String]
    }

    /// `rclone lsjson --stat --hash` of one file.
    private func entry(_ path: String, hashType: String?, operation: String) throws -> Entry {
        var arguments = ["lsjson", "--stat", "--hash"]
        if let hashType { arguments += ["--hash-type", hashType] }
        let (status, out, err) = try run(arguments, paths: [path])
        guard status == 0 else { throw UploadError(operation, path, Rclone.reason(err, status: status)) }
        guard let object = try? JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] else {
            throw UploadError(operation, path, "rclone lsjson printed no entry")
        }
        let hashes = (object["Hashes"] as? [String: String] ?? [:]).filter { !$0.value.isEmpty }
        return Entry(isFile: (object["IsDir"] as? Bool) == false, size: (object["Size"] as? NSNumber)?.int64Value ?? -1,
                     hashes: hashes)
    }

    /// Runs rclone with `arguments`, then `--` and `paths` (so that a path starting with
    /// `-` is never read as a flag); a destination's options (keys, passwords) go into
    /// rclone's environment, never its argv, which every local user can read. Standard
    /// error is read beside standard output so that neither can fill its pipe.
    private func run(_ arguments: [String], paths: [String] = []) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        var childEnvironment = environment
        var targets: [String] = []
        for path in paths {
            let (target, variables) = RcloneRemote(parsing: path)?.invocation ?? (path, [:])
            targets.append(target)
            childEnvironment.merge(variables) { _, new in new }
        }
        process.arguments = arguments + (paths.isEmpty ? [] : ["--"] + targets)
        process.environment = childEnvironment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw UploadError(arguments.first ?? "rclone", executable, "cannot run rclone (\(error))")
        }
        running.withLock { $0 = process }
        defer { running.withLock { $0 = nil } }
        let errText = Mutex("")
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errText.withLock { $0 = String(decoding: data, as: UTF8.self) }
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), errText.withLock { $0 })
    }

    /// rclone's reason for a failure: its last error line, without the timestamp, with
    /// the `caused by:` line that follows it.
    static func reason(_ stderr: String, status: Int32) -> String {
        let lines = stderr.split(separator: "\n").map { line -> String in
            var text = String(line)
            // "2026/11/30 16:46:08 ERROR : f.bin: Failed to copy: …"
            if let range = text.range(of: #"^\d{4}/\d\d/\d\d \d\d:\d\d:\d\d "#, options: .regularExpression) {
                text.removeSubrange(range)
            }
            if text.hasPrefix("ERROR : ") { text.removeFirst("ERROR : ".count) }
            return text.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        guard let last = lines.lastIndex(where: { $0.hasPrefix("Failed to ") || $0.contains("error") }) ?? lines.indices.last else {
            return "rclone exited with status \(status)"
        }
        var reason = lines[last]
        if last + 1 < lines.count, lines[last + 1].hasPrefix("caused by: ") { reason += " (" + lines[last + 1] + ")" }
        if reason.count > 400 { reason = String(reason.prefix(400)) + "…" }
        return reason
    }
}
