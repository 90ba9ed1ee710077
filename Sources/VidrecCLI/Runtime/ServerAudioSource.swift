import Dispatch
import Foundation
import Synchronization
import VidrecMedia

/// An audio source a running PipeWire offers (a card's input, a Bluetooth headset, a
/// virtual source), as `vidrec devices` lists it: ALSA's `pipewire` PCM records from it
/// when given its node name (`--mic pipewire:NODE=<name>`).
///
/// The list comes from `pw-dump` (Debian's `pipewire-bin`, installed with PipeWire),
/// which prints the server's objects as JSON: ALSA's own device hints do not reach into
/// the server, and linking libpipewire for a list would add a library to every
/// installation for one command.
struct PipeWireSource: Equatable {
    /// The node's name (`node.name`), which `NODE=` takes.
    var name: String
    /// What the desktop's sound settings call it (`node.description`).
    var description: String
    /// Whether it is the server's default source, the one `--mic default` records from.
    var isDefault: Bool

    /// The `--mic` value that records from this source.
    var mic: String { "pipewire:NODE=\(name)" }

    /// The sources in `pw-dump`'s output: nodes of media class `Audio/Source` (and
    /// virtual sources), in the server's order, the default one marked from the
    /// `default` metadata's `default.audio.source`. `nil` for output that is not
    /// `pw-dump`'s.
    static func sources(inDump data: Data) -> [PipeWireSource]? {
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
            return PipeWireSource(name: name, description: TextSafety.printable(description), isDefault: name == defaultName)
        }
    }

    /// The sources of the PipeWire this process reaches (`environment` carries
    /// `XDG_RUNTIME_DIR`), from `pw-dump`; `nil` when `pw-dump` is not installed, fails
    /// or has not answered within `timeout` seconds.
    static func list(environment: [String: String], timeout: Double = 10) -> [PipeWireSource]? {
        let paths = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":").map(String.init)
        guard let executable = paths.map({ $0 + "/pw-dump" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--no-colors"]
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
            kill(process.processIdentifier, SIGKILL)
            done.wait()
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return sources(inDump: data.withLock { $0 })
    }
}
