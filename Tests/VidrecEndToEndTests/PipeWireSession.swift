import Foundation
import Glibc
import Testing

/// A desktop's sound server in the VM: udevd (which marks the loopback card initialized,
/// as PipeWire's ALSA monitor requires), a D-Bus session bus, PipeWire and WirePlumber,
/// all in a runtime folder of their own, as a user session has. WirePlumber makes a
/// source of the loopback card's device 0 (`alsa_input.platform-snd_aloop.0…`), which
/// ALSA's `default` (pipewire-alsa) records from once ``environment`` is set.
/// Everything is stopped at deinit. In the VM only.
final class PipeWireSession {
    /// `XDG_RUNTIME_DIR` (and the D-Bus address) for a process of the session.
    let environment: [String: String]
    private let folder: String
    private var children: [(Process, ChildSignal)] = []

    init() throws {
        folder = "/run/tmp/pipewire-session-\(UUID().uuidString)"
        let config = folder + "/config"
        try Self.configureWirePlumber(in: config + "/wireplumber")
        chmod(folder, 0o700)
        let bus = "unix:path=\(folder)/bus"
        environment = ["XDG_RUNTIME_DIR": folder, "DBUS_SESSION_BUS_ADDRESS": bus]
        let own = ["HOME": folder, "XDG_CONFIG_HOME": config, "XDG_STATE_HOME": folder + "/state", "PATH": "/usr/bin:/bin",
                   "SYSTEMD_IGNORE_CHROOT": "1"].merging(environment) { $1 }
        if !FileManager.default.fileExists(atPath: "/run/udev/control") {
            try start("/lib/systemd/systemd-udevd", ["--daemon"], own)
            try #require(Poll.until(timeout: 60) { FileManager.default.fileExists(atPath: "/run/udev/control") ? true : nil } == true,
                         "udevd never started")
        }
        // The VM's root is not the init process's: without SYSTEMD_IGNORE_CHROOT, udevadm
        // takes itself to be in a chroot and does nothing.
        _ = try Self.tool("/usr/bin/udevadm", ["trigger", "--action=add", "--subsystem-match=sound"], own)
        _ = try Self.tool("/usr/bin/udevadm", ["settle"], own)
        try start("/usr/bin/dbus-daemon", ["--session", "--address=\(bus)", "--nofork", "--nopidfile"], own)
        try #require(Poll.until(timeout: 60) { FileManager.default.fileExists(atPath: folder + "/bus") ? true : nil } == true,
                     "the session bus never started")
        try start("/usr/bin/pipewire", [], own)
        try #require(Poll.until(timeout: 60) { FileManager.default.fileExists(atPath: folder + "/pipewire-0") ? true : nil } == true,
                     "PipeWire never made its socket")
        try start("/usr/bin/wireplumber", [], own)
        let source = Poll.until(timeout: 60) { () -> Bool? in
            let nodes = (try? Self.tool("/usr/bin/pw-cli", ["ls", "Node"], own)) ?? ""
            return nodes.contains("alsa_input.platform-snd_aloop") ? true : nil
        }
        try #require(source == true, "WirePlumber made no source of the loopback card")
    }

    /// The loopback card's sample format, as the tests' players play into it (aplay of
    /// 16-bit stereo WAVE files at 48 kHz).
    static let loopbackFormat = (name: "S16LE", rate: 48000, channels: 2)

    /// WirePlumber's settings for the session, in `folder` (its `XDG_CONFIG_HOME` part),
    /// written in both of its configuration languages: Lua for WirePlumber 0.4 (Debian
    /// 12), SPA-JSON for 0.5 (Debian 13). Each version reads only its own.
    /// - No Bluetooth: its monitor needs systemd-logind, which the VM does not run.
    /// - The loopback card's source opens the card in the players' format. snd-aloop
    ///   refuses to start a capture whose format differs from the playback already
    ///   running on its cable (`snd_pcm_start`: Input/output error), and PipeWire 1.4
    ///   opens it in the format it probed, not the one playing.
    static func configureWirePlumber(in folder: String) throws {
        let (format, rate, channels) = loopbackFormat
        let files = [
            "bluetooth.lua.d/51-no-bluetooth.lua": "bluez_monitor.enabled = false\n",
            "main.lua.d/51-loopback-format.lua": """
                table.insert(alsa_monitor.rules, {
                  matches = { { { "node.name", "matches", "alsa_input.platform-snd_aloop*" } } },
                  apply_properties = { ["audio.format"] = "\(format)", ["audio.rate"] = \(rate), ["audio.channels"] = \(channels) },
                })

                """,
            "wireplumber.conf.d/51-vidrec-tests.conf": """
                wireplumber.profiles = { main = { monitor.bluez = disabled } }
                monitor.alsa.rules = [
                  {
                    matches = [ { node.name = "~alsa_input.platform-snd_aloop.*" } ]
                    actions = { update-props = { audio.format = "\(format)", audio.rate = \(rate), audio.channels = \(channels) } }
                  }
                ]

                """,
        ]
        for (name, text) in files {
            let path = folder + "/" + name
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    /// What PipeWire has said so far of sound that did not flow: the lines of its log
    /// (at info level) about an xrun or a client too slow for its cycle. Each is a break
    /// in what a client hears that is the server's own, not vidrec's (a guest far behind
    /// under load).
    var serverBreaks: [String] {
        ((try? String(contentsOfFile: folder + "/pipewire.log", encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { $0.contains("XRun!") || $0.contains("too slow!") }.map(String.init)
    }

    /// How many breaks ``serverBreaks`` stand for: PipeWire logs a node's xruns at most
    /// so often, each line with the node's count so far (`XRun! … count:N`), so each
    /// node's highest count, and each client too slow.
    var serverBreakCount: Int {
        var xruns: [String: Int] = [:]
        var slow = 0
        for line in serverBreaks {
            if line.contains("too slow!") { slow += 1; continue }
            let node = line.range(of: #"\([^)]*\) XRun!"#, options: .regularExpression).map { String(line[$0]) } ?? ""
            let count = line.range(of: #"count:[0-9]+"#, options: .regularExpression).flatMap { Int(line[$0].dropFirst(6)) } ?? 1
            xruns[node] = max(xruns[node] ?? 0, count)
        }
        return slow + xruns.values.reduce(0, +)
    }

    deinit {
        // Newest first: WirePlumber, PipeWire, the bus (udevd stays for the next session).
        for (process, signal) in children.reversed() {
            signal.send(SIGTERM)
            if Poll.until(timeout: 10, { process.isRunning ? nil : true }) == nil { signal.send(SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func start(_ path: String, _ arguments: [String], _ environment: [String: String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        // PipeWire logs what it does at info level (an xrun among it).
        process.environment = path.hasSuffix("/pipewire") ? environment.merging(["PIPEWIRE_DEBUG": "3"]) { $1 } : environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        let log = folder + "/" + (path as NSString).lastPathComponent + ".log"
        FileManager.default.createFile(atPath: log, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: log)
        try process.run()
        // udevd daemonizes itself and is left running; the others are stopped at deinit.
        if path.hasSuffix("udevd") { return }
        children.append((process, ChildSignal(process)))
    }

    /// Runs a tool of the session; its standard output, or `nil` when it failed.
    private static func tool(_ path: String, _ arguments: [String], _ environment: [String: String]) throws -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return process.terminationStatus == 0 ? text : nil
    }
}
