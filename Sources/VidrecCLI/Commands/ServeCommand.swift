import Dispatch
import Foundation
import Glibc
import VidrecCore
import VidrecFFmpeg
import VidrecHTTP
import VidrecMedia
import VidrecSystem

/// `vidrec serve`: the camera's viewfinder and remote in a browser (``ServeRoutes``,
/// ``ServePage``), on the machine or from a phone.
struct ServeCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let mic = ArgumentKey.option("mic", value: "mic", help: "The microphone a recording from the page uses (as for 'vidrec start'). (default: default)")
        static let quality = ArgumentKey.option("quality", value: "preset", short: "q", help: "The preset the page offers first; the viewfinder asks the camera for its size and rate. (default: medium)")
        static let listen = ArgumentKey.option("listen", value: "address:port", help: "Where to listen: 127.0.0.1:8080, 0.0.0.0:8080 (every IPv4 address: reachable from the network), [::1]:8080, or a port alone on 127.0.0.1; port 0 takes a free one. (default: 127.0.0.1:8080)")
        static let tlsCert = ArgumentKey.option("tls-cert", value: "file", help: "Speak HTTPS with this certificate (PEM); needs --tls-key.")
        static let tlsKey = ArgumentKey.option("tls-key", value: "file", help: "The certificate's private key (PEM).")
        static let allowHost = ArgumentKey.repeatable("allow-host", value: "name", help: "Also answer requests for this host name (as the browser's address bar has it: a name of this machine in DNS or /etc/hosts). 127.0.0.1, localhost, [::1] and the --listen address are always answered, and every numeric address when listening on all of them. Repeatable.")
        static let rotate = ArgumentKey.option("rotate", value: "degrees", help: "Turn the picture clockwise by 90, 180 or 270 degrees: the viewfinder shows it turned, and a recording from the page is recorded with --rotate.")
        static let mirror = ArgumentKey.flag("mirror", help: "Flip the picture left to right: in the viewfinder, and in a recording from the page (--mirror).")
        static let newToken = ArgumentKey.flag("new-token", help: "Make a new token before serving, and keep it: every browser, bookmark and script with the old one is shut out.")
    }

    static let spec = CommandSpec(
        name: "serve",
        abstract: "Show the camera's viewfinder and a remote (record, stop, photo, pending, album) in a browser.",
        discussion: """
        Open the address it prints (it ends in ?token=…). The viewfinder shows the camera \
        while a browser watches it (the camera is free again 3 s after the last one \
        leaves), and the recording's own picture while one runs, whoever started it. \
        Recordings and photos from the page are ordinary ones: 'vidrec status' and \
        'vidrec stop' see them, and a recording goes on when the server stops. Listens on \
        127.0.0.1 unless --listen says otherwise; every request needs the token, kept in \
        $XDG_STATE_HOME/vidrec/serve-token (0600; --new-token makes a new one). The browser \
        keeps a cookie named for the port, derived from the token (HMAC), which no other \
        port accepts. Beyond \
        this machine, use --tls-cert and --tls-key: without TLS anyone on the way can read \
        the token.
        """,
        arguments: StartOptions.cameraArguments + [
            Key.mic.spec,
            Key.quality.spec,
            Key.listen.spec,
            Key.tlsCert.spec,
            Key.tlsKey.spec,
            Key.allowHost.spec,
            Key.rotate.spec,
            Key.mirror.spec,
            Key.newToken.spec,
        ] + MQTTOptions.arguments)

    /// The default port.
    static let defaultPort: UInt16 = 8080

    var camera: String
    var cameraFormat: PixelFormat?
    var microphone: String
    var quality: String
    var address: String
    var port: UInt16
    var tls: (certificate: String, key: String)?
    /// The `Host` names answered.
    var allowedHosts: HostAllowList
    /// `--rotate` and `--mirror`: the viewfinder shows the picture so, and recordings
    /// from the page record it so.
    var rotation: Int
    var mirror: Bool
    /// `--new-token`.
    var newToken: Bool
    /// `--mqtt`, `--mqtt-credentials`.
    var mqtt: MQTTOptions?

    init(_ arguments: ParsedArguments) throws(ParserError) {
        camera = arguments[StartOptions.Key.camera] ?? "default"
        cameraFormat = try StartOptions.cameraFormat(arguments, camera: camera)
        if camera == "none" {
            throw .invalidValue(camera, for: "--camera <camera>", reason: "the viewfinder needs a picture; name a camera, or leave --camera out")
        }
        microphone = arguments[Key.mic] ?? "default"
        rotation = try StartOptions.rotation(arguments, key: Key.rotate)
        mirror = arguments[Key.mirror]
        newToken = arguments[Key.newToken]
        mqtt = try MQTTOptions.parse(arguments)
        quality = arguments[Key.quality] ?? "medium"
        let listen = arguments[Key.listen] ?? "127.0.0.1:\(ServeCommand.defaultPort)"
        guard let (address, port) = ServeCommand.listenAddress(listen) else {
            throw .invalidValue(listen, for: "--listen <address:port>", reason: "give a numeric address and a port from 0 to 65535, such as 127.0.0.1:8080, 0.0.0.0:8080 or [::1]:8080, or a port alone")
        }
        (self.address, self.port) = (address, port)
        for name in arguments[Key.allowHost] where !HostAllowList.isValidName(name) {
            throw .invalidValue(name, for: "--allow-host <name>", reason: "give a host name (letters, digits, '-' and '.') or a numeric address, as the browser's address bar shows it, without a port")
        }
        allowedHosts = HostAllowList(listenAddress: address, extraNames: arguments[Key.allowHost])
        switch (arguments[Key.tlsCert], arguments[Key.tlsKey]) {
        case let (certificate?, key?): tls = (certificate, key)
        case (nil, nil): tls = nil
        case (_?, nil): throw .conflicting("--tls-cert <file>", "no --tls-key (give both)")
        case (nil, _?): throw .conflicting("--tls-key <file>", "no --tls-cert (give both)")
        }
    }

    /// `ADDRESS:PORT`, `[IPv6]:PORT` or `PORT` (on 127.0.0.1), checked: a numeric address
    /// and a port from 0 (a free one, chosen by the kernel and printed) to 65535.
    static func listenAddress(_ text: String) -> (address: String, port: UInt16)? {
        var address = "127.0.0.1", portText = text
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            address = String(text[text.index(after: text.startIndex)..<close])
            portText = String(text[text.index(close, offsetBy: 2)...])
            var v6 = in6_addr()
            guard inet_pton(AF_INET6, address, &v6) == 1 else { return nil }
        } else if let colon = text.lastIndex(of: ":") {
            address = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
            var v4 = in_addr()
            guard inet_pton(AF_INET, address, &v4) == 1 else { return nil }
        }
        guard let port = UInt16(portText), portText.allSatisfy(\.isASCII) else { return nil }
        return (address, port)
    }

    /// Whether `address` is this machine's loopback (reachable from it alone).
    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1"
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        // The preset is checked now: a bad --quality is said before anything listens.
        let preset = try context.presetLibrary.preset(named: quality)
        // Read once, now: a file it cannot read is said before anything listens.
        let pem = try tls.map { (try Self.pem("--tls-cert", $0.certificate), try Self.pem("--tls-key", $0.key)) }
        let token = try ServeToken.load(from: context.paths.stateDirectory + "/serve-token", renewing: newToken)
        let credentials = ServeCredentials(token: token)
        let store = try context.store()
        let (camera, cameraFormat, err) = (camera, cameraFormat, context.err)
        // Room for every connection the server allows beside the process's own files
        // (a soft limit of 1,024 is Debian's default); what cannot be raised is left.
        _ = try? ProcessLimits.raiseOpenFiles()
        SignalWatcher.blockSignals()
        var video = preset.settings.video
        (video.rotation, video.isMirrored) = (rotation, mirror)
        let viewfinder = ServeViewfinder(store: store, devices: {
            SystemDevices(camera: camera, cameraFormat: cameraFormat, fit: .crop, microphone: "none") { _ in }
        }, video: video, claims: context.paths.runtimeDirectory)
        var deviceArguments = ["--camera=\(camera)", "--mic=\(microphone)"]
        if let cameraFormat { deviceArguments.append("--camera-format=\(cameraFormat.rawValue)") }
        var orientationArguments = rotation == 0 ? [] : ["--rotate=\(rotation)"]
        if mirror { orientationArguments.append("--mirror") }
        let routes = ServeRoutes(credentials: credentials, viewfinder: viewfinder, context: context, deviceArguments: deviceArguments,
                                 orientationArguments: orientationArguments, quality: preset.name, isSecure: tls != nil,
                                 album: context.albumCatalog(nil, describer: CachedMovieDescriber(MovieProbe())),
                                 mqttArguments: mqtt?.commandLine ?? [])
        let server: HTTPServer
        do {
            server = try HTTPServer(address: address, port: port, tls: pem, allowedHosts: allowedHosts,
                                    limits: HTTPServerLimits(bodyBytes: ServeRoutes.maximumBodyBytes),
                                    admission: routes.admit, handler: routes.handle)
        } catch {
            viewfinder.stop()
            throw error
        }
        credentials.bind(port: server.port)
        let house: ServeMQTT?
        do {
            house = try mqtt.map { try ServeMQTT($0, routes: routes, store: store, log: err) }
        } catch {
            server.stop()
            viewfinder.stop()
            throw error
        }
        sayServing(port: server.port, token: token, err: err)
        let stopping = DispatchSemaphore(value: 0)
        _ = SignalWatcher { signal in
            // SIGUSR1: another vidrec asks for the camera the preview holds.
            if signal == SIGUSR1 { viewfinder.lend() } else { stopping.signal() }
        }
        stopping.wait()
        house?.stop()
        server.stop()
        viewfinder.stop()
        for recording in store.runningRecordings() {
            err("vidrec: recording \(recording.id) goes on; 'vidrec stop' ends it\n")
        }
        err("vidrec: stopped serving\n")
        return .success
    }

    /// Where the page is, with its token; MQTT; and a warning when the token travels
    /// in the clear beyond this machine.
    private func sayServing(port: UInt16, token: ServeToken, err: @Sendable (String) -> Void) {
        let host = address.contains(":") ? "[\(address)]" : address
        let scheme = tls == nil ? "http" : "https"
        if let mqtt { err("vidrec: telling \(mqtt.address) what happens, and taking its commands\n") }
        err("vidrec: serving \(scheme)://\(host):\(port)/?token=\(token.value) (the token is kept in \(token.path)); Ctrl-C stops\n")
        if !ServeCommand.isLoopback(address), tls == nil {
            err("vidrec: listening beyond this machine without TLS: anyone on the network path can read the token and the pictures; give --tls-cert and --tls-key, or listen on 127.0.0.1 and reach it through an SSH tunnel\n")
        }
    }

    /// The PEM text of `path`, given as `option`.
    private static func pem(_ option: String, _ path: String) throws -> String {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw CLIError("cannot read \(option) \(path); give a readable PEM file", .noInput)
        }
        return text
    }
}
