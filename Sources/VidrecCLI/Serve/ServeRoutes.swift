import Foundation
import VidrecCore
import VidrecHTTP
import VidrecMedia
import VidrecSystem
import VidrecV4L2

/// What `vidrec serve` answers, request by request:
///
/// | request | answer |
/// |---|---|
/// | `GET /?token=T` | sets this port's cookie (``ServeCredentials``) and goes to `/` |
/// | `GET /`, `GET /app.js` | the page and its script (``ServePage``) |
/// | `GET /viewfinder.mjpg` | the viewfinder, as MJPEG over HTTP |
/// | `GET /api/state` | the view, the recording, the pending items and the album's version, as JSON |
/// | `GET /api/album` | the album as `vidrec list --json` lists it, with its version as the ETag (304 when unchanged) |
/// | `POST /api/start` `{"quality","max"}` | `vidrec start` (the page's camera and microphone) |
/// | `POST /api/stop`, `/api/snap` | `vidrec stop`, `vidrec snap` |
/// | `POST /api/switch` `{"camera"}`, `/api/trigger`, `/api/pause`, `/api/resume` | the running recording's `vidrec switch`, `trigger`, `pause`, `resume` |
/// | `POST /api/save` `{"id","name"}`, `/api/discard` `{"id"}` | `vidrec save`, `vidrec discard` |
/// | `GET /api/controls`, `POST /api/controls` `{"name","value"}` | the camera's controls; `vidrec controls --set` |
/// | `GET /media/pending/ID`, `/media/album/NAME`, `/media/poster/NAME` | a file, by name (ranges) |
///
/// Every request shows the token: this port's cookie, or an `X-Vidrec-Token` header with
/// the token or the page's key (``ServeCredentials``); a POST shows it in the header
/// (which a page of another site cannot set) and, from a browser, comes from this
/// server's own origin. Files are found by name among the pending items and the
/// album's, never by a path from the request.
struct ServeRoutes: Sendable {
    /// The token, and what the browser holds instead of it.
    let credentials: ServeCredentials
    let viewfinder: ServeViewfinder
    let context: CommandContext
    /// The camera and microphone options a recording or a photo from the page gets.
    let deviceArguments: [String]
    /// `--rotate` and `--mirror` for a recording from the page.
    let orientationArguments: [String]
    /// The preset the page offers first.
    let quality: String
    /// Whether the server speaks TLS.
    let isSecure: Bool
    /// The albums, each file's header read once until it changes: the page asks for the
    /// album's version every second.
    let album: AlbumCatalog
    /// `--mqtt` and its credentials, for the recordings started from the page.
    var mqttArguments: [String] = []

    /// Viewfinder streams open at once, at most: a phone, a desktop and a few tabs need
    /// fewer.
    static let maximumViewers = 8
    /// The largest request body the API needs (a few short JSON fields).
    static let maximumBodyBytes = 16 << 10

    /// The viewfinder streams open now.
    let viewers = ViewfinderViewers(maximum: ServeRoutes.maximumViewers)

    /// A request whose headers are in, before its body is read: without the token (or
    /// the entry's `?token=`) it is refused at once, so that a body is never read for
    /// someone who may not send one.
    func admit(_ request: HTTPRequest) -> HTTPResponse? {
        if request.method == "GET", request.path == "/", let given = request.query["token"] {
            return credentials.token.matches(given) ? nil : unauthorized(request)
        }
        let admitted = credentials.admitsCookies(request.header("cookie")) || credentials.admitsHeader(request.header("x-vidrec-token"))
        return admitted ? nil : unauthorized(request)
    }

    func handle(_ request: HTTPRequest) -> HTTPResponse {
        // The server has admitted it already; asked again, so that the routes never
        // depend on how they are served.
        if let refusal = admit(request) { return refusal }
        if request.method == "GET", request.path == "/", request.query["token"] != nil {
            guard let cookie = credentials.setCookie(secure: isSecure) else { return .error("starting; reload", status: 503) }
            return HTTPResponse(status: 303, headers: [("Location", "/"), ("Set-Cookie", cookie), ("Cache-Control", "no-store")])
        }
        switch (request.method, request.path) {
        case ("GET", "/"):
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                                                       ("Content-Security-Policy", ServePage.contentSecurityPolicy)],
                                body: .bytes(Data(ServePage.html(key: credentials.pageKey ?? "").utf8)))
        case ("GET", "/app.js"):
            return .text(ServePage.script, type: "text/javascript; charset=utf-8")
        case ("GET", "/viewfinder.mjpg"):
            let feed = viewfinder.feed, viewers = viewers
            guard viewers.admit() else {
                return .error("\(viewers.maximum) viewfinders are open already; close one (a tab, a phone) and reload", status: 503)
            }
            let stream = MultipartPictureStream(next: { after in
                feed.picture(after: after, timeout: 1).map { ($0.jpeg, $0.number, $0.capturedAt) }
            }, closed: viewers.leave)
            return HTTPResponse(status: 200, headers: [("Content-Type", MultipartPictureStream.contentType), ("Cache-Control", "no-store")],
                                body: .stream(stream))
        case ("GET", "/api/state"):
            return .json(state())
        case ("GET", "/api/album"):
            return albumListing(ifNoneMatch: request.header("if-none-match"))
        case ("GET", "/api/controls"):
            return controls()
        case ("POST", _) where request.path.hasPrefix("/api/"):
            if let refusal = refusedAsCrossSite(request) { return refusal }
            return act(String(request.path.dropFirst("/api/".count)), body: request.body)
        case ("GET", _) where request.path.hasPrefix("/media/"):
            return media(String(request.path.dropFirst("/media/".count)), range: request.header("range"))
        case (_, "/"), (_, "/viewfinder.mjpg"), (_, "/api/state"), (_, "/api/album"):
            return .error("\(request.method) is not answered here; use GET", status: 405)
        default:
            return .error("nothing at \(request.path)", status: 404)
        }
    }

    private func unauthorized(_ request: HTTPRequest) -> HTTPResponse {
        // No path of this machine: the owner finds the token where 'vidrec serve' said.
        let message = "this vidrec asks for its token: open the address 'vidrec serve' printed (it ends in ?token=…)"
        if request.method == "GET", request.path == "/" {
            var page = HTTPResponse.text("<!doctype html><meta charset=utf-8><title>vidrec</title><p>\(ServePage.escaped(message))</p>",
                                         status: 401, type: "text/html; charset=utf-8")
            page.headers.append(("Content-Security-Policy", ServePage.contentSecurityPolicy))
            return page
        }
        return .error(message, status: 401)
    }

    /// A POST that a browser sent from another origin (its `Origin` is not this
    /// server's), or without the token in its header: refused.
    private func refusedAsCrossSite(_ request: HTTPRequest) -> HTTPResponse? {
        guard credentials.admitsHeader(request.header("x-vidrec-token")) else {
            return .error("a request that changes something carries the token in its X-Vidrec-Token header", status: 403)
        }
        if let origin = request.header("origin") {
            let own = (isSecure ? "https://" : "http://") + (request.header("host") ?? "")
            guard origin == own else { return .error("a request from another site (\(origin)) is refused", status: 403) }
        }
        if let site = request.header("sec-fetch-site"), site != "same-origin", site != "none" {
            return .error("a request from another site (\(site)) is refused", status: 403)
        }
        return nil
    }

    // MARK: - State

    func state() -> [String: Any] {
        let status = viewfinder.status
        var view: [String: Any] = ["source": status.source]
        view["camera"] = status.camera
        view["mode"] = status.mode
        view["problem"] = status.problem
        var state: [String: Any] = ["viewfinder": view, "quality": quality]
        if let id = status.recording {
            var recording: [String: Any] = ["id": id]
            if let progress = status.progress {
                recording.merge(["elapsed": progress.elapsed, "frames": progress.videoFrames, "bytes": progress.bytes,
                                 "droppedFrames": progress.droppedFrames, "paused": progress.isPaused]) { $1 }
                recording["cameraGone"] = progress.cameraGone
                recording["microphoneGone"] = progress.microphoneGone
            }
            if let entry = try? context.store().entry(id: id) {
                recording["preset"] = entry.sidecar.preset
                recording["maxDuration"] = entry.sidecar.maxDuration
            }
            state["recording"] = recording
        }
        state["pending"] = ((try? PendingCommand.rows(try context.store())) ?? []).map(ServeRoutes.withoutPaths)
        state["albumVersion"] = ServeRoutes.version(of: (try? album.items()) ?? [])
        state["presets"] = context.presetLibrary.availableNames()
        return state
    }

    /// The album as `vidrec list --json` lists it (without paths), with its version as
    /// the ETag; 304 when the page says it has that version already (`If-None-Match`).
    private func albumListing(ifNoneMatch: String?) -> HTTPResponse {
        let items = (try? album.items()) ?? []
        let version = ServeRoutes.version(of: items)
        let etag = "\"\(version)\""
        if ifNoneMatch == etag { return HTTPResponse(status: 304, headers: [("ETag", etag), ("Cache-Control", "no-store")]) }
        var response = HTTPResponse.json(["version": version, "items": items.map { ServeRoutes.withoutPaths(ListCommand.row($0)) }])
        response.headers.append(("ETag", etag))
        return response
    }

    /// A version of the album's listing, which changes when an item comes, goes, or
    /// changes its name, size, date or poster frame: 16 hex digits (FNV-1a, 64 bits).
    static func version(of items: [AlbumItem]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for item in items {
            let line = "\(item.name)\u{0}\(item.bytes)\u{0}\(item.date.timeIntervalSince1970)\u{0}\(item.thumbnail ?? "")\u{0}\(item.unreadable ?? "")\n"
            for byte in line.utf8 {
                hash ^= UInt64(byte)
                hash &*= 0x100_0000_01b3
            }
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// A row of `vidrec pending --json` or `vidrec list --json` without the paths on this
    /// machine (the page asks for files by name).
    private static func withoutPaths(_ row: [String: Any]) -> [String: Any] {
        var row = row
        if let reason = row["unreadable"] as? String {
            row["unreadable"] = withoutPaths(reason, file: row["path"] as? String, name: row["name"] as? String)
        }
        for key in ["path", "file", "thumbnail"] { row[key] = nil }
        return row
    }

    /// `text` (why a file cannot be read) with the file's path given as its name, and any
    /// other absolute path left out (`…`).
    private static func withoutPaths(_ text: String, file: String?, name: String?) -> String {
        var text = text
        if let file, !file.isEmpty { text = text.replacingOccurrences(of: file, with: name ?? "the file") }
        return text.replacingOccurrences(of: #"(?<![A-Za-z0-9])/[^\s:'"]+"#, with: "…", options: .regularExpression)
    }

    /// `--camera=…` as the server was given it.
    var cameraArgument: String {
        deviceArguments.first { $0.hasPrefix("--camera=") } ?? "--camera=default"
    }

    /// The camera's controls, as `vidrec controls --json` lists them (none for the test
    /// camera).
    private func controls() -> HTTPResponse {
        let result = VidrecChild.run(context.executable, ["controls", cameraArgument, "--json"])
        if result.code == ExitCode.usage.rawValue { return .json(["controls": [Any]()]) }
        guard result.code == 0, let object = try? JSONSerialization.jsonObject(with: Data(result.out.utf8)) else {
            return reply(result)
        }
        return .json(object)
    }

    // MARK: - Actions

    private func act(_ action: String, body: Data) -> HTTPResponse {
        guard let fields = ServeRoutes.fields(of: body) else { return .error("the request's body is not a JSON object", status: 400) }
        return perform(action, fields: fields)
    }

    /// Does `action` (one of ``actions``) with the request's `fields`: what `POST
    /// /api/ACTION` and an MQTT command (``ServeMQTT``) ask.
    func perform(_ action: String, fields: [String: Any]) -> HTTPResponse {
        func text(_ key: String) -> String? {
            if let value = fields[key] as? String { return value.isEmpty ? nil : value }
            if let value = fields[key] as? NSNumber { return value.stringValue }
            return nil
        }
        let executable = context.executable
        switch action {
        case "start":
            return start(quality: text("quality") ?? quality, max: text("max"))
        case "stop":
            let id = text("id")
            if let id, !RecordingStore.isValidID(id) { return .error("not a recording ID: \(id)", status: 400) }
            return reply(VidrecChild.run(executable, ["stop"] + (id.map { [$0] } ?? [])))
        case ControlName.snap.rawValue:
            return reply(viewfinder.withCameraFree { VidrecChild.run(executable, ["snap"] + deviceArguments.filter { !$0.hasPrefix("--mic") }) })
        case ControlName.switch.rawValue:
            guard let camera = text("camera") else { return .error("say which camera: {\"camera\": \"1\"}", status: 400) }
            guard ServeRoutes.isFoundCamera(camera) else {
                return .error("'\(TextSafety.printable(camera))' is not a camera vidrec found; give its number or its path as 'vidrec devices' lists it",
                              status: 400)
            }
            return reply(VidrecChild.run(executable, ["switch", "--camera=\(camera)"]))
        case ControlName.trigger.rawValue, ControlName.pause.rawValue, ControlName.resume.rawValue:
            return reply(VidrecChild.run(executable, [action]))
        case "controls":
            guard let name = text("name"), let value = text("value") else {
                return .error("say which control and its value: {\"name\": \"brightness\", \"value\": 200}", status: 400)
            }
            return reply(VidrecChild.run(executable, ["controls", cameraArgument, "--set=\(name)=\(value)"]))
        case "save", "discard":
            guard let id = text("id") else { return .error("say which pending item: its ID", status: 400) }
            // Checked, so that it never reaches the command line as anything else.
            guard RecordingStore.isValidID(id) else { return .error("not a recording ID: \(id)", status: 400) }
            var arguments = [action, id]
            if action == "save", let name = text("name") { arguments.append("--as=\(name)") }
            return reply(VidrecChild.run(executable, arguments), saves: action == "save")
        default:
            return .error("no action '\(action)'; there are \(ServeRoutes.actions.dropLast().joined(separator: ", ")) and \(ServeRoutes.actions.last!)", status: 404)
        }
    }

    /// An action's fields: none for an empty body, `nil` for one that is not a JSON object.
    private static func fields(of body: Data) -> [String: Any]? {
        if body.isEmpty { return [:] }
        return try? JSONSerialization.jsonObject(with: body) as? [String: Any]
    }

    /// `POST /api/start`: a recording with the preset `asked` and the page's `max`. A
    /// preset by name from the library, never a path: nothing from a request reaches the
    /// file system as a path.
    private func start(quality asked: String, max: String?) -> HTTPResponse {
        let names = context.presetLibrary.availableNames()
        guard asked == quality || names.contains(asked) else {
            let hint = Suggestion.closest(to: asked, in: names).map { " Did you mean '\($0)'?" } ?? ""
            return .error("unknown quality preset '\(TextSafety.printable(asked))'.\(hint) The page records with a preset by its name: \(names.joined(separator: ", "))",
                          status: 400)
        }
        var arguments = ["--quality=\(asked)"] + deviceArguments + orientationArguments
        if let max { arguments.append("--max=\(max)") }
        arguments += mqttArguments
        let executable = context.executable
        let failure = viewfinder.withCameraFree { VidrecChild.startRecording(executable, arguments) }
        if let failure { return reply(failure) }
        return .json(["started": true])
    }

    /// The actions of `POST /api/ACTION`, which the page posts: serve's own, and the
    /// running recording's requests the page offers (by their ``ControlName``).
    static let actions = ["start", "stop"] + [ControlName.snap, .switch, .trigger, .pause, .resume].map(\.rawValue)
        + ["controls", "save", "discard"]

    /// Whether `camera`, asked for by a request, names a camera vidrec found rather than
    /// any file: a test camera, a number or a name from `vidrec devices` (which only
    /// ever match a found camera), or the path of a found camera, or a `/dev/v4l` link
    /// to one.
    static func isFoundCamera(_ camera: String) -> Bool {
        guard camera.contains("/") else { return true }
        let found = Set(CameraDiscovery().cameras().map(\.path))
        if found.contains(camera) { return true }
        guard camera.hasPrefix("/dev/v4l/by-id/") || camera.hasPrefix("/dev/v4l/by-path/"), !camera.contains("/../"),
              let target = try? FileManager.default.destinationOfSymbolicLink(atPath: camera) else { return false }
        let resolved = URL(fileURLWithPath: target, relativeTo: URL(fileURLWithPath: camera).deletingLastPathComponent()).standardizedFileURL.path
        return found.contains(resolved)
    }

    /// A command's result as JSON: what it said, with the HTTP status for its exit code;
    /// for a save, the names of the files it saved (`saved`).
    private func reply(_ result: VidrecChild.Result, saves: Bool = false) -> HTTPResponse {
        var object: [String: Any] = ["exitCode": result.code, "message": result.message]
        if saves, result.code == 0 { object["saved"] = result.out.split(separator: "\n").map { ($0 as NSString).lastPathComponent } }
        if result.code != 0 { object["error"] = result.message }
        return .json(object, status: result.httpStatus)
    }

    // MARK: - Files

    /// A file by name: `pending/ID` (the pending recording's or photo's file),
    /// `album/NAME` (an album item, as `vidrec list` names it) or `poster/NAME` (its
    /// poster frame).
    private func media(_ rest: String, range: String?) -> HTTPResponse {
        let parts = rest.split(separator: "/", maxSplits: 1).map(String.init)
        // The daemon has decoded the path's escapes once already: the name is as it is.
        guard parts.count == 2 else { return .error("nothing at /media/\(rest)", status: 404) }
        let name = parts[1]
        switch parts[0] {
        case "pending":
            guard RecordingStore.isValidID(name), let entry = try? context.store().entry(id: name) else {
                return .error("no pending item \(name)", status: 404)
            }
            let path = FileManager.default.fileExists(atPath: entry.mediaPath) ? entry.mediaPath : entry.partialPath
            return .file(in: (path as NSString).deletingLastPathComponent, named: (path as NSString).lastPathComponent,
                         type: ServeRoutes.contentType(of: path), rangeHeader: range)
        case "album", "poster":
            guard let item = ((try? album.items()) ?? []).first(where: { $0.name == name }) else {
                return .error("no album item \(name)", status: 404)
            }
            // Beneath the album folder, never through a link: a poster frame or a file
            // that is a link to something else (the token) is not served.
            if parts[0] == "poster" {
                guard item.thumbnail != nil else { return .error("\(name) has no poster frame", status: 404) }
                return .file(in: item.album, named: item.thumbnailName, type: "image/jpeg", rangeHeader: range)
            }
            return .file(in: item.album, named: item.name, type: ServeRoutes.contentType(of: item.path), rangeHeader: range)
        default:
            return .error("nothing at /media/\(rest)", status: 404)
        }
    }

    /// The MIME type of a recording or photo by its extension.
    static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "mp4": "video/mp4"
        case "m4v": "video/x-m4v"
        case "mov": "video/quicktime"
        case "mkv": "video/x-matroska"
        case "webm": "video/webm"
        case "ts": "video/mp2t"
        case "m4a": "audio/mp4"
        case "ogg", "opus": "audio/ogg"
        case "wav": "audio/wav"
        case "flac": "audio/flac"
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        default: "application/octet-stream"
        }
    }
}
