import Foundation
import Glibc
import Testing

/// nginx with Debian's RTMP module on 127.0.0.1, recording every stream published to
/// its `live` application into FLV files (one per publishing, `record_unique`), as a
/// media server would receive vidrec's live stream.
final class RTMPServer {
    let port: Int
    let folder: String
    private var process: Process?
    private var signaller: ChildSignal?

    /// Whether Debian's nginx and its RTMP module are installed (`scripts/install-deps`).
    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx")
            && FileManager.default.fileExists(atPath: module)
    }

    private static let module = "/usr/lib/nginx/modules/ngx_rtmp_module.so"

    /// Writes the configuration into `folder` and starts the server.
    init(folder: String) throws {
        port = LocalPort.free()
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder + "/recorded", withIntermediateDirectories: true)
        let configuration = """
        load_module \(Self.module);
        daemon off;
        master_process off;
        pid \(folder)/nginx.pid;
        error_log \(folder)/error.log info;
        events { worker_connections 64; }
        rtmp {
            server {
                listen 127.0.0.1:\(port);
                application live {
                    live on;
                    record all;
                    record_path \(folder)/recorded;
                    record_unique on;
                }
            }
        }
        """
        try configuration.write(toFile: folder + "/nginx.conf", atomically: true, encoding: .utf8)
        try start()
    }

    /// The URL to publish `stream` to.
    func url(_ stream: String) -> String { "rtmp://127.0.0.1:\(port)/live/\(stream)" }

    /// Starts nginx (again) and waits until it accepts connections.
    func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-c", folder + "/nginx.conf", "-p", folder, "-e", folder + "/error.log"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // Start it with SIGQUIT unblocked: nginx without a master process keeps the mask
        // it is started with, and a test thread's may block it (a test earlier in the
        // process ran vidrec's command line in-process, which blocks the stop signals).
        // Only SIGQUIT: Foundation watches its children through SIGCHLD, which must stay
        // as it is.
        var quit = sigset_t(), old = sigset_t()
        sigemptyset(&quit)
        sigaddset(&quit, SIGQUIT)
        pthread_sigmask(SIG_UNBLOCK, &quit, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        try process.run()
        self.process = process
        signaller = ChildSignal(process)
        let listening = Poll.until { LocalPort.isListening(port) ? true : (process.isRunning ? nil : false) }
        try #require(listening == true, "nginx did not start: \((try? String(contentsOfFile: folder + "/error.log", encoding: .utf8)) ?? "")")
    }

    /// Kills nginx at once (a crashed server) and waits until it is gone.
    func kill() {
        signaller?.send(SIGKILL)
        process?.waitUntilExit()
        process = nil
    }

    /// The FLV files recorded so far, oldest first (the names end in a Unix time).
    var recordings: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder + "/recorded")) ?? []
        return names.filter { $0.hasSuffix(".flv") }.sorted().map { folder + "/recorded/" + $0 }
    }

    /// Waits until every client that connected since nginx last started has
    /// disconnected and nginx has dealt with all it sent (its log's "disconnect" lines):
    /// a publisher that has closed its connection may have left data in the socket that
    /// nginx has not read yet, and stopping nginx then would cut the recording short.
    func waitUntilClientsLeft() throws {
        let left = Poll.until { () -> Bool? in
            let whole = (try? String(contentsOfFile: folder + "/error.log", encoding: .utf8)) ?? ""
            // What this nginx logged: after the last start's "using the … event method".
            let log = whole.range(of: " event method", options: .backwards).map { String(whole[$0.upperBound...]) } ?? whole
            let connected = log.components(separatedBy: " client connected ").count - 1
            let disconnected = log.components(separatedBy: " disconnect, client: ").count - 1
            return connected > 0 && disconnected >= connected ? true : nil
        }
        try #require(left == true, "a client stayed connected to nginx")
    }

    /// Stops nginx gracefully (SIGQUIT: it closes its recordings) and waits until it is gone.
    func stop() {
        signaller?.send(SIGQUIT)
        process?.waitUntilExit()
        process = nil
    }

    deinit { stop() }
}
