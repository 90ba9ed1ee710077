import Foundation
import Glibc
import Testing

/// A real S3 API on 127.0.0.1: PyPI's moto in server mode (`scripts/install-deps
/// --servers` installs it), and an rclone configuration naming it as the remote `s3test`.
/// Its buckets live in the server's memory: a restart starts empty, as a wiped store.
final class S3Server {
    let port: Int
    /// The rclone configuration file (`RCLONE_CONFIG`) with the remote `s3test`.
    let rcloneConfig: String
    private let folder: String
    private var process: Process?
    private var signaller: ChildSignal?

    /// The Python that has moto installed, or `nil`.
    static let python: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":").map(String.init) + ["/usr/local/bin", "/usr/bin"] {
            let candidate = "\(folder)/python3"
            guard FileManager.default.isExecutableFile(atPath: candidate) else { continue }
            let check = Process()
            check.executableURL = URL(fileURLWithPath: candidate)
            check.arguments = ["-c", "import moto.server, flask"]
            check.standardOutput = FileHandle.nullDevice
            check.standardError = FileHandle.nullDevice
            guard (try? check.run()) != nil else { continue }
            check.waitUntilExit()
            if check.terminationStatus == 0 { return candidate }
        }
        return nil
    }()

    /// Whether moto and rclone are installed.
    static var isInstalled: Bool { python != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/rclone") }

    /// Writes the rclone configuration into `folder` and starts the server.
    init(folder: String) throws {
        port = LocalPort.free()
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        rcloneConfig = folder + "/rclone.conf"
        try """
        [s3test]
        type = s3
        provider = Other
        endpoint = http://127.0.0.1:\(port)
        access_key_id = test
        secret_access_key = test
        region = us-east-1

        """.write(toFile: rcloneConfig, atomically: true, encoding: .utf8)
        try start()
    }

    /// Starts the server (again) and waits until it accepts connections.
    func start() throws {
        let python = try #require(Self.python, "moto is missing: run scripts/install-deps --servers")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-m", "moto.server", "-H", "127.0.0.1", "-p", "\(port)"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let log = FileHandle(forWritingAtPath: folder + "/moto.log") ?? {
            FileManager.default.createFile(atPath: folder + "/moto.log", contents: nil)
            return FileHandle(forWritingAtPath: folder + "/moto.log")!
        }()
        log.seekToEndOfFile()
        process.standardError = log
        try process.run()
        self.process = process
        signaller = ChildSignal(process)
        let listening = Poll.until { LocalPort.isListening(port) ? true : (process.isRunning ? nil : false) }
        try #require(listening == true, "moto did not start: \((try? String(contentsOfFile: folder + "/moto.log", encoding: .utf8)) ?? "")")
    }

    /// Kills the server at once (a crashed store, mid-transfer) and waits until it is gone.
    func kill() {
        signaller?.send(SIGKILL)
        process?.waitUntilExit()
        process = nil
    }

    /// Runs Debian's rclone against this server; `nil` when it fails.
    func rclone(_ arguments: [String]) -> Data? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/rclone")
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": folder, "RCLONE_CONFIG": rcloneConfig]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? data : nil
    }

    /// The objects under `path` (`bucket/prefix`) with their sizes and MD5 sums, by name.
    func objects(_ path: String) -> [String: (size: Int, md5: String)] {
        guard let data = rclone(["lsjson", "-R", "--files-only", "--hash", "s3test:" + path]),
              let rows = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [:] }
        var objects: [String: (size: Int, md5: String)] = [:]
        for row in rows {
            guard let name = row["Path"] as? String, let size = row["Size"] as? Int else { continue }
            objects[name] = (size, (row["Hashes"] as? [String: String])?["md5"] ?? "")
        }
        return objects
    }

    deinit { kill() }
}
