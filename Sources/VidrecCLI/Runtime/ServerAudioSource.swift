import Dispatch
import Foundation
import Synchronization
import VidrecALSA
import VidrecMedia
import VidrecSystem

/// An audio source a running sound server offers (a card's input, a Bluetooth headset,
/// a virtual source), as `vidrec devices` lists it, with the `--mic` that records from
/// it through the server's ALSA plug-in: `pipewire:NODE=<name>` for PipeWire,
/// `pulse:DEVICE=<name>` for PulseAudio.
///
/// The list comes from the server's own command-line tool, which prints its objects as
/// JSON: `pw-dump` (Debian's `pipewire-bin`, installed with PipeWire) and `pactl
/// --format=json` (`pulseaudio-utils`, installed with PulseAudio). ALSA's own device
/// hints do not reach into the server, and linking libpipewire or libpulse for a list
/// would add a library to every installation for one command.
struct ServerAudioSource: Equatable {
    /// The server's name for the source (PipeWire's `node.name`, PulseAudio's source
    /// name), which the plug-in's `NODE=` or `DEVICE=` takes.
    var name: String
    /// What the desktop's sound settings call it.
    var description: String
    /// Whether it is the server's default source, the one `--mic default` records from.
    var isDefault: Bool
    /// The `--mic` value that records from this source.
    var mic: String

    /// The sources in `pw-dump`'s output: nodes of media class `Audio/Source` (and
    /// virtual sources), in the server's order, the default one marked from the
    /// `default` metadata's `default.audio.source`. `nil` for output that is not
    /// `pw-dump`'s.
    static func pipeWire(dump data: Data) -> [ServerAudioSource]? {
        guard let objects = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return nil }
        var defaultName: String?
        for object in objects where object["type"] as? String == "PipeWire:Interface:Metadata" {
            guard (object["props"] as? [String: Any])?["metadata.name"] as? String == "default" else { continue }
            for entry in object["metadata"] as? [[String: Any]] ?? [] where entry["key"] as? String == "default.audio.source" {
                // The value is a JSON object ({"name": …}), or that object as a string.
                var value = entry["value"]
                if let text = value as? String { value = try? JSONSerialization.jsonObject(with: Data(text.utf8)) }
                defaultName = (value as? [String: Any])?["name"] as? String
            }
        }
        return objects.compactMap { object in
            guard object["type"] as? String == "PipeWire:Interface:Node",
                  let props = (object["info"] as? [String: Any])?["props"] as? [String: Any],
                  let mediaClass = props["media.class"] as? String,
                  mediaClass == "Audio/Source" || mediaClass == "Audio/Source/Virtual",
                  let name = props["node.name"] as? String else { return nil }
            let description = props["node.description"] as? String ?? props["node.nick"] as? String ?? name
            return ServerAudioSource(name: name, description: TextSafety.printable(description), isDefault: name == defaultName,
                                     mic: "pipewire:NODE=\(name)")
        }
    }

    /// The sources in `pactl --format=json list sources`' output (`sources`), without
    /// the monitors of its sinks (what the machine plays, not a microphone), the default
    /// one marked from `pactl --format=json info`'s `default_source_name` (`info`).
    /// `nil` for output that is not pactl's.
    static func pulseAudio(sources: Data, info: Data) -> [ServerAudioSource]? {
        guard let objects = try? JSONSerialization.jsonObject(with: sources) as? [[String: Any]] else { return nil }
        let server = (try? JSONSerialization.jsonObject(with: info)) as? [String: Any]
        let defaultName = server?["default_source_name"] as? String
        return objects.compactMap { object in
            guard let name = object["name"] as? String else { return nil }
            let properties = object["properties"] as? [String: Any] ?? [:]
            // A monitor names its sink in `monitor_source` (empty for others).
            if let sink = object["monitor_source"] as? String, !sink.isEmpty { return nil }
            if properties["device.class"] as? String == "monitor" { return nil }
            let description = object["description"] as? String ?? name
            return ServerAudioSource(name: name, description: TextSafety.printable(description), isDefault: name == defaultName,
                                     mic: "pulse:DEVICE=\(name)")
        }
    }

    /// The sources of `server` as this process reaches it (`environment` carries
    /// `XDG_RUNTIME_DIR`); `nil` when its tool is not installed, fails or has not
    /// answered within `timeout` seconds.
    static func list(_ server: SoundServer, environment: [String: String], timeout: Double = 10) -> [ServerAudioSource]? {
        switch server.pluginType {
        case "pipewire":
            return output(of: "pw-dump", ["--no-colors"], environment: environment, timeout: timeout).flatMap { pipeWire(dump: $0) }
        case "pulse":
            guard let sources = output(of: "pactl", ["--format=json", "list", "sources"], environment: environment, timeout: timeout),
                  let info = output(of: "pactl", ["--format=json", "info"], environment: environment, timeout: timeout) else {
                return nil
            }
            return pulseAudio(sources: sources, info: info)
        default:
            return nil
        }
    }

    /// What `tool`, found on `environment`'s `PATH`, prints when run with `arguments`;
    /// `nil` when it is not there, fails, or has not finished within `timeout` seconds
    /// (it is then killed).
    private static func output(of tool: String, _ arguments: [String], environment: [String: String], timeout: Double) -> Data? {
        let paths = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        guard let executable = paths.map({ $0 + "/" + tool }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let done = DispatchSemaphore(value: 0)
        let data = Mutex(Data())
        DispatchQueue.global().async {
            let read = output.fileHandleForReading.readDataToEndOfFile()
            data.withLock { $0 = read }
            done.signal()
        }
        if done.wait(timeout: .now() + timeout) == .timedOut {
            // SIGKILL: a signal the child could block or ignore would leave it running.
            try? FileSystem.signal(process.processIdentifier, SIGKILL)
            done.wait()
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return data.withLock { $0 }
    }
}
