import CALSA
import Glibc
import VidrecSystem

/// A sound server (PipeWire, PulseAudio) that an ALSA PCM goes through: on a desktop,
/// ALSA's `default` is PipeWire's plug-in (`pipewire-alsa`), which talks to the user's
/// server over a socket in `XDG_RUNTIME_DIR`. Outside a desktop session (cron, a system
/// service) that variable is not set, and the PCM cannot work.
public struct SoundServer: Sendable, Equatable {
    /// The server's name for messages: `PipeWire`, `PulseAudio`.
    public let name: String
    /// The ALSA plug-in type that reaches it: `pipewire`, `pulse`.
    public let pluginType: String

    /// PipeWire, through `pipewire-alsa`'s `pipewire` plug-in.
    public static let pipeWire = SoundServer(name: "PipeWire", pluginType: "pipewire")
    /// PulseAudio, through alsa-plugins' `pulse` plug-in.
    public static let pulseAudio = SoundServer(name: "PulseAudio", pluginType: "pulse")

    /// The server behind the ALSA PCM `pcm`, if its definition in ALSA's configuration
    /// is one of the servers' plug-ins (`type pipewire`, `type pulse`); `nil` for a card
    /// (`hw:1,0`) or anything else. The corresponding C functions are
    /// `snd_config_update_ref` and `snd_config_search_definition`.
    public static func behind(pcm: String) -> SoundServer? {
        calsa_silence_errors()
        var top: OpaquePointer?
        guard snd_config_update_ref(&top) >= 0, let top else { return nil }
        defer { snd_config_unref(top) }
        var definition: OpaquePointer?
        guard snd_config_search_definition(top, "pcm", pcm, &definition) >= 0, let definition else { return nil }
        defer { snd_config_delete(definition) }
        var typeNode: OpaquePointer?
        var type: UnsafePointer<CChar>?
        guard snd_config_search(definition, "type", &typeNode) >= 0, snd_config_get_string(typeNode, &type) >= 0,
              let type else { return nil }
        switch String(cString: type) {
        case "pipewire": return .pipeWire
        case "pulse": return .pulseAudio
        default: return nil
        }
    }

    /// Why this process cannot reach the server, or `nil` when its socket is where the
    /// plug-in looks for it (`PIPEWIRE_RUNTIME_DIR` or `XDG_RUNTIME_DIR`, then
    /// `pipewire-0`; `PULSE_SERVER`, or `XDG_RUNTIME_DIR/pulse/native`).
    public func unreachableReason(environment: [String: String]) -> String? {
        if pluginType == "pulse", environment["PULSE_SERVER"].map({ !$0.isEmpty }) == true { return nil }
        let directoryVariable = pluginType == "pipewire" && environment["PIPEWIRE_RUNTIME_DIR"] != nil ? "PIPEWIRE_RUNTIME_DIR" : "XDG_RUNTIME_DIR"
        guard let directory = environment[directoryVariable], !directory.isEmpty else {
            return "XDG_RUNTIME_DIR is not set: this runs outside a desktop session, as under cron or a system service"
        }
        let socket = pluginType == "pipewire" ? directory + "/" + (environment["PIPEWIRE_REMOTE"] ?? "pipewire-0")
            : directory + "/pulse/native"
        guard let status = try? FileSystem.status(socket), status.st_mode & S_IFMT == S_IFSOCK else {
            return "no \(name) socket at \(socket): \(name) is not running for this user"
        }
        return nil
    }
}
