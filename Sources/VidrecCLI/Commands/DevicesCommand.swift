import Foundation
import VidrecALSA
import VidrecLibcamera
import VidrecMedia
import VidrecSystem
import VidrecV4L2

/// `vidrec devices`: cameras with their formats, sizes, rates and controls; microphones.
struct DevicesCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let json = ArgumentKey.flag("json", help: "Print JSON for scripts.")
    }

    static let spec = CommandSpec(
        name: "devices",
        abstract: "List cameras and microphones.",
        discussion: "The index shown before each device can be passed to --camera or --mic.",
        arguments: [Key.json.spec])

    var json: Bool

    init(_ arguments: ParsedArguments) throws(ParserError) {
        json = arguments[Key.json]
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let libcameraCameras = LibcameraDiscovery().cameras()
        let cameras = CameraDiscovery(libcameraNodes: LibcameraDiscovery.nodeOwners(libcameraCameras)).cameras()
        let microphones = MicrophoneDiscovery().microphones()
        let environment = ProcessInfo.processInfo.environment
        let server = SoundServerSource.find(environment: environment)
        // A reachable server's own sources.
        let sources = server.flatMap { $0.problem == nil ? ServerAudioSource.list($0.server, environment: environment) : nil }
        if json {
            try context.printJSON([
                "cameras": cameras.enumerated().map(Self.json),
                "libcameraCameras": libcameraCameras.map(Self.json),
                "microphones": microphones.enumerated().map(Self.json),
                "soundServer": server.map { Self.json($0, sources: sources) } as Any,
            ] as [String: Any])
            return .success
        }
        context.out("Cameras:\n")
        if cameras.isEmpty { context.out("  none (no /dev/video* device can capture video)\n") }
        for (index, camera) in cameras.enumerated() { Self.describe(camera, index: index, context) }
        if !libcameraCameras.isEmpty {
            context.out("Cameras through libcamera \(LibcameraDiscovery.version):\n")
            for camera in libcameraCameras { Self.describe(camera, context) }
        }
        context.out("Microphones:\n")
        if microphones.isEmpty { context.out("  none (no ALSA capture device)\n") }
        for (index, mic) in microphones.enumerated() {
            let rates = mic.rates.map { "\($0.lowerBound)–\($0.upperBound) Hz" } ?? "busy"
            let channels = mic.channels.map { "\($0.lowerBound)–\($0.upperBound) ch" } ?? ""
            context.out("  \(index): \(mic.name)  \(mic.card): \(mic.device)  \(rates) \(channels)\n")
        }
        if let server { Self.describe(server, sources: sources, context) }
        return .success
    }

    /// A camera as `--json` lists it.
    private static func json(_ index: Int, _ camera: CameraDescription) -> [String: Any] {
        [
            "index": index, "path": camera.path, "links": camera.links, "name": camera.name, "driver": camera.driver, "bus": camera.bus,
            "unusable": camera.unusableReason as Any, "libcameraCamera": camera.libcameraCamera as Any,
            "modes": camera.modes.map { ["format": $0.fourcc, "width": $0.width, "height": $0.height,
                                          "frameRate": $0.frameRate.description, "emulated": $0.emulated] as [String: Any] },
            "controls": camera.controls.map { ["name": $0.name, "min": $0.minimum, "max": $0.maximum,
                                                "default": $0.defaultValue, "value": $0.value as Any] as [String: Any] },
        ]
    }

    /// A libcamera camera as `--json` lists it.
    private static func json(_ camera: LibcameraDiscovery.Camera) -> [String: Any] {
        ["id": camera.id, "camera": camera.selector, "model": camera.model, "formats": camera.formats,
         "controls": LibcameraDiscovery().controls(of: camera.id).map { ["key": $0.key, "name": $0.name, "type": $0.kind.rawValue,
                                                                         "min": $0.minimum, "max": $0.maximum] as [String: Any] },
         "modes": camera.modes.map { ["format": $0.fourcc, "width": $0.width, "height": $0.height,
                                       "frameRate": $0.frameRate.description] as [String: Any] }]
    }

    /// A libcamera camera's lines: `--camera`'s name for it, its model, its modes by format.
    private static func describe(_ camera: LibcameraDiscovery.Camera, _ context: CommandContext) {
        context.out("  \(camera.selector)  \(camera.model)\n")
        if camera.modes.isEmpty {
            context.out("     not recordable: it offers \(camera.formats.joined(separator: ", ")), none of which vidrec reads\n")
        }
        for format in Set(camera.modes.map(\.fourcc)).sorted() {
            let sizes = camera.modes.filter { $0.fourcc == format }.map { "\($0.width)x\($0.height)@\($0.frameRate)" }
            context.out("     \(format): \(sizes.joined(separator: " "))\n")
        }
        let controls = LibcameraDiscovery().controls(of: camera.id)
        if !controls.isEmpty {
            context.out("     controls: \(controls.map { "\($0.key) [\($0.range)]" }.joined(separator: ", "))\n")
        }
    }

    /// A microphone as `--json` lists it.
    private static func json(_ index: Int, _ mic: MicrophoneDescription) -> [String: Any] {
        [
            "index": index, "name": mic.name, "card": mic.card, "device": mic.device,
            "rates": mic.rates.map { [$0.lowerBound, $0.upperBound] } as Any,
            "channels": mic.channels.map { [$0.lowerBound, $0.upperBound] } as Any,
        ]
    }

    /// The sound server and its sources as `--json` lists them.
    private static func json(_ server: SoundServerSource, sources: [ServerAudioSource]?) -> [String: Any] {
        ["name": server.server.name, "mic": server.pcm, "problem": server.problem as Any,
         "sources": sources.map { $0.map { ["name": $0.name, "description": $0.description, "mic": $0.mic,
                                            "default": $0.isDefault] as [String: Any] } } as Any]
    }

    /// A camera's lines: its number, path and name, its links, its modes by format and its controls.
    private static func describe(_ camera: CameraDescription, index: Int, _ context: CommandContext) {
        context.out("  \(index): \(camera.path)  \(camera.name)  (\(camera.driver), \(camera.bus))\n")
        for link in camera.links { context.out("     also: \(link)\n") }
        if let owner = camera.libcameraCamera {
            context.out("     part of \(owner), a camera libcamera runs: record it with --camera \(owner)\n")
        } else if let reason = camera.unusableReason {
            context.out("     not recordable: \(reason)\n")
        }
        var byFormat: [String: [CameraMode]] = [:]
        for mode in camera.modes { byFormat[mode.fourcc + (mode.emulated ? " (converted by libv4l)" : ""), default: []].append(mode) }
        for (format, modes) in byFormat.sorted(by: { $0.key < $1.key }) {
            var sizes: [String] = []
            var seen = Set<String>()
            for mode in modes where seen.insert("\(mode.width)x\(mode.height)").inserted {
                let rates = modes.filter { $0.width == mode.width && $0.height == mode.height }.map(\.frameRate.description)
                sizes.append("\(mode.width)x\(mode.height)@\(rates.joined(separator: "/"))")
            }
            context.out("     \(format): \(sizes.joined(separator: " "))\n")
        }
        if !camera.controls.isEmpty {
            let controls = camera.controls.map { "\($0.name)=\($0.value.map(String.init) ?? "?") [\($0.minimum)..\($0.maximum)]" }
            context.out("     controls: \(controls.joined(separator: ", "))\n")
        }
    }

    /// The sound server's lines: reachable or not, and its sources.
    private static func describe(_ server: SoundServerSource, sources: [ServerAudioSource]?, _ context: CommandContext) {
        context.out("Sound server:\n")
        if let problem = server.problem {
            context.out("  \(server.server.name) (--mic \(server.pcm) goes through it): not reachable: \(problem); record from a card above\n")
        } else {
            context.out("  \(server.server.name): --mic \(server.pcm) records from its default source (the desktop's sound settings choose it)\n")
            for source in sources ?? [] {
                context.out("     \(source.description)\(source.isDefault ? " (default)" : ""): --mic \(source.mic)\n")
            }
        }
    }
}
