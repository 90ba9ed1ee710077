import Foundation
import Glibc
import Testing

/// A desktop's PulseAudio, in a runtime folder of its own, with one source named
/// `source` and the native protocol's socket: on the host, a 440 Hz sine source; in the
/// VM, the loopback card's device 0. The daemon is Debian 12's (16.1), unpacked by
/// `scripts/install-deps --servers` into ``root`` (its package conflicts with
/// pipewire-alsa). A process with ``environment`` and a home prepared with
/// ``routeDefault(home:)`` has ALSA's `default` go through it, as on such a desktop.
/// Stopped at deinit.
final class PulseAudioSession {
    /// What the source records.
    enum Source {
        /// A sine wave of this many hertz (`module-sine-source`).
        case tone(Int)
        /// The loopback card's capture device 0, without timer-based scheduling (the
        /// card's interrupts pace it, as a USB microphone's do), at the players' 48 kHz:
        /// the loopback card hands its playback side's samples to its capture side as
        /// they are, so a capture side at PulseAudio's default 44.1 kHz would stretch
        /// what the players play by 9 %.
        case loopbackCard
    }

    /// `XDG_RUNTIME_DIR` for a process of the session.
    let environment: [String: String]
    /// The source's name, which `pulse:DEVICE=` takes.
    static let sourceName = "source"
    private let folder: String
    /// The environment pulseaudio and pactl run with.
    private let own: [String: String]

    /// Where `scripts/install-deps --servers` unpacks Debian's pulseaudio package.
    static let root = "/var/cache/vidrec-tests/pulseaudio"

    init(_ source: Source) throws {
        let daemon = Self.root + "/usr/bin/pulseaudio"
        try #require(FileManager.default.isExecutableFile(atPath: daemon), "PulseAudio is not unpacked (scripts/install-deps --servers)")
        let modules = try #require(try FileManager.default.contentsOfDirectory(atPath: Self.root + "/usr/lib")
            .first { $0.hasPrefix("pulse-") }.map { Self.root + "/usr/lib/" + $0 + "/modules" }, "no modules in \(Self.root)")
        let base = FileManager.default.fileExists(atPath: "/run/tmp") ? "/run/tmp/" : NSTemporaryDirectory()
        folder = base + "pulseaudio-session-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder + "/pulse", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        chmod(folder, 0o700)
        environment = ["XDG_RUNTIME_DIR": folder]
        own = ["HOME": folder, "XDG_CONFIG_HOME": folder + "/config", "XDG_STATE_HOME": folder + "/state",
               "PATH": "/usr/bin:/bin", "LD_LIBRARY_PATH": Self.root + "/usr/lib/x86_64-linux-gnu/pulseaudio:" + modules].merging(environment) { $1 }
        let module = switch source {
        case let .tone(hertz): "module-sine-source source_name=\(Self.sourceName) rate=48000 frequency=\(hertz)"
        case .loopbackCard: "module-alsa-source device=hw:Loopback,0,0 source_name=\(Self.sourceName) rate=48000 tsched=0"
        }
        // No configuration file (-n): the one source, a sink (whose monitor is a source
        // that is not a microphone), and the socket clients connect to. It runs as a
        // daemon, which returns once it is ready: kept as a child, it left Foundation
        // waiting in waitpid for it to end, and the pactl children that followed were
        // never seen to exit (the test hung).
        let started = try Self.tool(daemon,
                                    ["-n", "--daemonize=yes", "--exit-idle-time=-1", "--dl-search-path=\(modules)", "-L", module,
                                     "-L", "module-null-sink sink_name=speakers", "-L", "module-native-protocol-unix"],
                                    own, readingOutput: false)
        let ready = started == nil ? nil : Poll.until(timeout: 60) { () -> Bool? in
            guard let sources = try? Self.tool("/usr/bin/pactl", ["list", "short", "sources"], own) else { return nil }
            return sources.contains(Self.sourceName) ? true : nil
        }
        if ready != true { stop() }
        try #require(ready == true, "PulseAudio made no source")
        // The source is the default one (else the sink's monitor, loaded after it, may be).
        _ = try Self.tool("/usr/bin/pactl", ["set-default-source", Self.sourceName], own)
    }

    deinit { stop() }

    /// Routes ALSA's `default` through PulseAudio for a process whose home is `home`, as
    /// Debian's pulseaudio package does while a server answers (its `pulse-alsa.conf`,
    /// here in `~/.asoundrc`).
    static func routeDefault(home: String) throws {
        try """
        pcm.!default {
            type pulse
            hint { show on description "Playback/recording through the PulseAudio sound server" }
        }
        ctl.!default {
            type pulse
        }

        """.write(toFile: home + "/.asoundrc", atomically: true, encoding: .utf8)
    }

    /// Stops the daemon (`pulseaudio --kill`, through its PID file) and waits until its
    /// PID file is gone.
    private func stop() {
        if (try? Self.tool(Self.root + "/usr/bin/pulseaudio", ["--kill"], own)) != nil {
            _ = Poll.until(timeout: 30) { FileManager.default.fileExists(atPath: folder + "/pulse/pid") ? nil : true }
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs a tool of the session; its standard output (unless `readingOutput` is false:
    /// a daemon it starts would hold the pipe open), or `nil` when it failed.
    private static func tool(_ path: String, _ arguments: [String], _ environment: [String: String],
                             readingOutput: Bool = true) throws -> String? {
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: path)
        tool.arguments = arguments
        tool.environment = environment
        let out = Pipe()
        tool.standardOutput = readingOutput ? out : FileHandle.nullDevice
        tool.standardError = FileHandle.nullDevice
        tool.standardInput = FileHandle.nullDevice
        try tool.run()
        let text = readingOutput ? String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) : ""
        tool.waitUntilExit()
        return tool.terminationStatus == 0 ? text : nil
    }
}
