import Foundation
import Glibc
import Testing

extension EndToEndTests {
    /// `vidrec serve`: the viewfinder and the remote, asked as a browser asks
    /// (``ServeClient``), with the test camera.
    @Suite struct ServeEndToEndTests {
        /// The test camera's frame number on a viewfinder picture (640x360).
        static func frameNumber(_ jpeg: Data) throws -> (number: Int, width: Int, height: Int) {
            let file = NSTemporaryDirectory() + "viewfinder-\(UUID().uuidString).jpg"
            try jpeg.write(to: URL(fileURLWithPath: file))
            defer { try? FileManager.default.removeItem(atPath: file) }
            let stream = try #require(try Probe.streams(file).first)
            let (width, height) = (try #require(stream.width), try #require(stream.height))
            return (Probe.frameNumber(grey: try Probe.greyFrame(file, index: 0), width: width, height: height), width, height)
        }

        @Test func aBrowserWatchesRecordsSnapsSavesAndDiscardsWithTheToken() throws {
            let home = try Home()
            let serve = try VidrecProcess(["serve", "--camera", "test", "--mic", "test", "--quality", "low", "--listen", "127.0.0.1:0"],
                                          home: home.path)
            #expect(serve.waitForError(containing: "vidrec: serving "))
            let client = try ServeClient(serving: serve.errorSoFar)
            try Self.expectTheTokenGuardsEverything(client, home: home, serve: serve)
            try Self.expectThePreviewAndTheRefusals(client, home: home)
            let id = try Self.recordPauseSnapAndStop(client)
            let photoID = try Self.expectThePendingMovieAndPhoto(client, id: id)
            try Self.expectTheSavedMovieServed(client, home: home, id: id)

            // Discard the photo; an ID that is not one never reaches the command line.
            #expect(try client.post("discard", ["id": "--all"], origin: client.base).status == 400)
            let discarded = try client.post("discard", ["id": photoID], origin: client.base)
            #expect(discarded.status == 200, "\(discarded.text)")
            #expect(try home.pendingRows().isEmpty)

            serve.signal(SIGTERM)
            let ended = serve.wait()
            #expect(ended.code == 0 && ended.err.hasSuffix("vidrec: stopped serving\n"), "\(ended.err)")
        }

        /// The token: nothing without it; the printed address sets its cookie, bound to
        /// this port; the page holds its own key.
        static func expectTheTokenGuardsEverything(_ client: ServeClient, home: Home, serve: VidrecProcess) throws {
            let tokenFile = home.path + "/.local/state/vidrec/serve-token"
            #expect(try String(contentsOfFile: tokenFile, encoding: .utf8) == client.token + "\n")
            var status = stat()
            #expect(stat(tokenFile, &status) == 0 && status.st_mode & 0o777 == 0o600)
            #expect(serve.errorSoFar.contains("(the token is kept in \(tokenFile))"))
            let refused = try client.request("/", cookie: false)
            #expect(refused.status == 401 && refused.text.contains("open the address"), "\(refused.text)")
            #expect(!refused.text.contains(home.path), "no path of this machine: \(refused.text)")
            #expect(refused.headers["content-security-policy"]?.contains("script-src 'self'") == true, "\(refused.headers)")
            #expect(try client.request("/api/state", cookie: false).status == 401)
            #expect(try client.request("/viewfinder.mjpg", cookie: false).status == 401)
            #expect(try client.request("/?token=" + String(repeating: "0", count: 32), cookie: false).status == 401)
            let entry = try client.request("/?token=\(client.token)", cookie: false)
            #expect(entry.status == 303 && entry.headers["location"] == "/")
            #expect(entry.headers["set-cookie"] == "\(client.cookie); Path=/; HttpOnly; SameSite=Strict")
            // What the browser keeps is bound to this port: the token itself as a cookie,
            // and this server's cookie as worked out for another port, are refused; a
            // cookie of this name set from elsewhere does not hide the real one.
            let value = String(client.cookie.split(separator: "=")[1])
            let otherPort = try ServeClient.cookie(token: client.token, port: client.port + 1)
            for stranger in ["vidrec-token=\(client.token)", "vidrec-token-\(client.port)=\(client.token)", otherPort,
                             "vidrec-token-\(client.port)=" + String(otherPort.split(separator: "=")[1])] {
                #expect(try client.request("/api/state", ["--header", "Cookie: \(stranger)"], cookie: false).status == 401, "\(stranger)")
            }
            #expect(try client.request("/api/state", ["--header", "Cookie: vidrec-token-\(client.port)=\(String(repeating: "0", count: 64)); \(client.cookie)"],
                                       cookie: false).status == 200)
            let page = try client.request("/")
            #expect(page.status == 200 && page.text.contains(#"<img id="view" src="/viewfinder.mjpg""#))
            // The page holds its own key for this port, not the token or the cookie's value.
            let pageKey = try ServeClient.hmac(key: client.token, message: "page \(client.port)")
            #expect(page.text.contains(#"<meta name="vidrec-token" content="\#(pageKey)">"#), "\(page.text.prefix(400))")
            #expect(!page.text.contains(client.token) && !page.text.contains(value))
            #expect(try client.request("/api/state", ["--header", "X-Vidrec-Token: \(pageKey)"], cookie: false).status == 200)
            #expect(try client.request("/api/state", ["--header", "X-Vidrec-Token: \(value)"], cookie: false).status == 401)
            #expect(page.headers["content-security-policy"]?.contains("script-src 'self'") == true)
            #expect(try client.request("/app.js").text.contains("X-Vidrec-Token"))
        }

        /// The viewfinder shows the camera's preview while nothing records, and a request
        /// that changes something needs the header, the page's origin and a real preset.
        static func expectThePreviewAndTheRefusals(_ client: ServeClient, home: Home) throws {
            // The viewfinder: the camera's preview while nothing records, new pictures.
            let preview = try client.pictures(3).map(Self.frameNumber)
            #expect(preview.allSatisfy { $0.width == 640 && $0.height == 360 }, "\(preview)")
            #expect(zip(preview, preview.dropFirst()).allSatisfy { $0.number < $1.number }, "\(preview.map(\.number))")
            let idle = try client.state()
            #expect((idle["viewfinder"] as? [String: Any])?["source"] as? String == "preview", "\(idle)")
            #expect((idle["presets"] as? [String])?.contains("high") == true && idle["quality"] as? String == "low")

            // A request that changes something carries the token in its header and comes
            // from the page's own origin.
            let withoutHeader = try client.post("start", ["quality": "low"], tokenHeader: false)
            #expect(withoutHeader.status == 403, "\(withoutHeader.text)")
            let crossSite = try client.post("start", ["quality": "low"], origin: "http://evil.example")
            #expect(crossSite.status == 403 && crossSite.text.contains("another site"), "\(crossSite.text)")
            // vidrec's own checks and message: a preset that does not exist.
            let unknown = try client.post("start", ["quality": "nonesuch"], origin: client.base)
            #expect(unknown.status == 400 && (unknown.json["error"] as? String)?.contains("unknown quality preset 'nonesuch'") == true,
                    "\(unknown.text)")
            #expect(try home.pendingRows().isEmpty)
        }

        /// Records from the page, pauses, resumes, snaps and stops; returns the recording's ID.
        static func recordPauseSnapAndStop(_ client: ServeClient) throws -> String {
            // Record: the viewfinder shows the recording's own picture, and its progress.
            let started = try client.post("start", ["quality": "low"], origin: client.base)
            #expect(started.status == 200, "\(started.text)")
            let recording = try #require(Poll.until { (try? client.state())?["recording"] as? [String: Any] })
            let id = try #require(recording["id"] as? String)
            #expect(recording["preset"] as? String == "low")
            let recorded = try client.pictures(2).map(Self.frameNumber)
            #expect(recorded.allSatisfy { $0.width == 640 } && recorded[0].number < recorded[1].number, "\(recorded)")
            let progressed = try #require(Poll.until { () -> Double? in
                let elapsed = ((try? client.state())?["recording"] as? [String: Any])?["elapsed"] as? Double ?? 0
                return elapsed >= 1 ? elapsed : nil
            })
            #expect(progressed >= 1)
            #expect(((try client.state())["viewfinder"] as? [String: Any])?["source"] as? String == "recording")
            // Pause and resume, as the commands do; the state follows.
            let paused = try client.post("pause", origin: client.base)
            #expect(paused.status == 200, "\(paused.text)")
            #expect(Poll.until { ((try? client.state())?["recording"] as? [String: Any])?["paused"] as? Bool == true ? true : nil } == true)
            #expect(try client.post("resume", origin: client.base).status == 200)
            #expect(Poll.until { ((try? client.state())?["recording"] as? [String: Any])?["paused"] as? Bool == false ? true : nil } == true)
            // A trigger for a recording that waits for none: vidrec's own refusal.
            let trigger = try client.post("trigger", origin: client.base)
            #expect(trigger.status >= 400 && trigger.json["error"] != nil, "\(trigger.text)")
            // A photo from the recording, as 'vidrec snap' takes one.
            let snapped = try client.post("snap", origin: client.base)
            #expect(snapped.status == 200 && (snapped.json["message"] as? String)?.contains("taken from recording \(id)") == true,
                    "\(snapped.text)")
            let stopped = try client.post("stop", ["id": id], origin: client.base)
            #expect(stopped.status == 200 && (stopped.json["message"] as? String ?? "").isEmpty == false, "\(stopped.text)")
            #expect(Poll.until { (try? client.state())?["recording"] == nil ? true : nil } == true)
            return id
        }

        /// The pending movie and photo, served without paths; returns the photo's ID.
        static func expectThePendingMovieAndPhoto(_ client: ServeClient, id: String) throws -> String {
            // Pending: the movie at the preset's size, and the photo.
            let pending = try #require((try client.state())["pending"] as? [[String: Any]])
            let movie = try #require(pending.first { $0["id"] as? String == id && $0["kind"] as? String == "video" }, "\(pending)")
            #expect(movie["file"] == nil, "no paths of this machine: \(movie)")
            let photo = try #require(pending.first { $0["kind"] as? String == "photo" }, "\(pending)")
            let photoID = try #require(photo["id"] as? String)
            let photoFile = try client.request("/media/pending/\(photoID)")
            #expect(photoFile.status == 200 && photoFile.headers["content-type"] == "image/jpeg")
            #expect(try Self.frameNumber(photoFile.body).width == 640)
            let movieFile = try client.request("/media/pending/\(id)")
            #expect(movieFile.status == 200 && movieFile.headers["content-type"] == "video/mp4")
            return photoID
        }

        /// Saves with a name: in the album, played with ranges, with its poster frame.
        static func expectTheSavedMovieServed(_ client: ServeClient, home: Home, id: String) throws {
            // Save with a name: in the album, played with ranges, with its poster frame.
            // The state carries the album's version; the album itself comes apart, and
            // answers 304 while that version stands.
            let emptyVersion = try #require((try client.state())["albumVersion"] as? String)
            let saved = try client.post("save", ["id": id, "name": "door"], origin: client.base)
            #expect(saved.status == 200 && saved.json["saved"] as? [String] == ["door.mp4"], "\(saved.text)")
            let version = try #require((try client.state())["albumVersion"] as? String)
            #expect(version != emptyVersion && version.count == 16)
            let listing = try client.request("/api/album")
            #expect(listing.status == 200 && listing.headers["etag"] == "\"\(version)\"" && listing.json["version"] as? String == version,
                    "\(listing.headers) \(listing.text)")
            let unchanged = try client.request("/api/album", ["--header", "If-None-Match: \"\(version)\""])
            #expect(unchanged.status == 304 && unchanged.body.isEmpty, "\(unchanged.status)")
            #expect(try client.request("/api/album", ["--header", "If-None-Match: \"\(emptyVersion)\""]).status == 200)
            let album = try #require(listing.json["items"] as? [[String: Any]])
            let item = try #require(album.first { $0["name"] as? String == "door.mp4" }, "\(album)")
            #expect(item["width"] as? Int == 640 && item["height"] as? Int == 360 && item["path"] == nil, "\(item)")
            let onDisk = home.album + "/door.mp4"
            let size = try #require(try FileManager.default.attributesOfItem(atPath: onDisk)[.size] as? Int)
            let part = try client.request("/media/album/door.mp4", ["--header", "Range: bytes=100-199"])
            #expect(part.status == 206 && part.body.count == 100 && part.headers["content-range"] == "bytes 100-199/\(size)")
            #expect(part.body == (try Data(contentsOf: URL(fileURLWithPath: onDisk)))[100..<200])
            let whole = try client.request("/media/album/door.mp4")
            let download = NSTemporaryDirectory() + "served-\(UUID().uuidString).mp4"
            try whole.body.write(to: URL(fileURLWithPath: download))
            defer { try? FileManager.default.removeItem(atPath: download) }
            #expect(try Probe.streams(download).map(\.codec) == ["h264", "aac"])
            #expect(abs(try Probe.formatDuration(download) - (item["duration"] as? Double ?? 0)) < 0.1)
            let poster = try client.request("/media/poster/door.mp4")
            #expect(poster.status == 200 && poster.headers["content-type"] == "image/jpeg")
            // Files by name only.
            for path in ["/media/album/..%2F..%2F.bashrc", "/media/pending/..%2Fserve-token", "/media/album/%2Fetc%2Fpasswd", "/media/nothing/x"] {
                #expect(try client.request(path).status == 404, "\(path)")
            }
        }

        /// Album files are fetched by their names as they are (escapes decoded once), each
        /// with its type, and the listing names no path of this machine. Only this
        /// machine's names and those given with `--allow-host` are answered: another
        /// site's name (DNS rebinding) gets 421 before the token is even looked at.
        @Test func filesGoByTheirNameAndTypeAndOnlyThisMachinesHostNamesAreAnswered() throws {
            let home = try Home()
            try FileManager.default.createDirectory(atPath: home.album, withIntermediateDirectories: true)
            let files = ["50%off.mp4": "fifty", "a%41.mp4": "percent", "aA.mp4": "capital", "clip.webm": "webm", "clip.m4v": "m4v",
                         "still.png": "png"]
            for (name, content) in files { try Data(content.utf8).write(to: URL(fileURLWithPath: home.album + "/" + name)) }
            let serve = try VidrecProcess(["serve", "--camera", "test", "--listen", "127.0.0.1:0", "--allow-host", "pi.home"], home: home.path)
            #expect(serve.waitForError(containing: "vidrec: serving "))
            let client = try ServeClient(serving: serve.errorSoFar)
            for (path, content, type) in [("50%25off.mp4", "fifty", "video/mp4"), ("a%2541.mp4", "percent", "video/mp4"),
                                          ("aA.mp4", "capital", "video/mp4"), ("clip.webm", "webm", "video/webm"),
                                          ("clip.m4v", "m4v", "video/x-m4v"), ("still.png", "png", "image/png")] {
                let reply = try client.request("/media/album/" + path)
                #expect(reply.status == 200 && reply.text == content && reply.headers["content-type"] == type,
                        "\(path): \(reply.status) \(reply.headers) \(reply.text)")
                #expect(reply.headers["x-content-type-options"] == "nosniff", "\(path)")
            }
            #expect(try client.request("/media/album/a%41.mp4").text == "capital", "decoded once: aA.mp4")
            // A poster frame, or an album file, that is a link to the token is not served.
            let tokenFile = home.path + "/.local/state/vidrec/serve-token"
            try FileManager.default.createDirectory(atPath: home.album + "/.thumbnails", withIntermediateDirectories: true)
            try #require(symlink(tokenFile, home.album + "/.thumbnails/aA.mp4.jpg") == 0)
            try #require(symlink(tokenFile, home.album + "/token.mp4") == 0)
            for path in ["/media/poster/aA.mp4", "/media/album/token.mp4"] {
                let refused = try client.request(path)
                #expect(refused.status == 404 && !refused.text.contains(client.token), "\(path): \(refused.status) \(refused.text)")
            }
            // Files that are no movies are listed as unreadable, with why, but without paths.
            let listing = try client.request("/api/album")
            #expect(listing.status == 200 && listing.headers["cache-control"] == "no-store", "\(listing.headers)")
            let items = try #require(listing.json["items"] as? [[String: Any]])
            #expect(Set(items.compactMap { $0["name"] as? String }) == Set(files.keys), "\(items)")
            #expect(items.contains { $0["unreadable"] != nil }, "\(items)")
            #expect(!listing.text.contains(home.path) && !listing.text.contains(home.album), "\(listing.text)")
            // Host names: this machine's and the one allowed are answered, others never.
            for host in ["localhost:\(client.port)", "pi.home:\(client.port)", "[::1]:\(client.port)"] {
                #expect(try client.request("/api/state", ["--header", "Host: \(host)"]).status == 200, "\(host)")
            }
            for host in ["evil.example:\(client.port)", "pi.home.evil.example", "192.168.1.5:\(client.port)"] {
                let refused = try client.request("/api/state", ["--header", "Host: \(host)"])
                #expect(refused.status == 421 && refused.text.contains("--allow-host"), "\(host): \(refused.status) \(refused.text)")
                #expect(try client.request("/?token=\(client.token)", ["--header", "Host: \(host)"], cookie: false).status == 421)
            }
            serve.signal(SIGTERM)
            #expect(serve.wait().code == 0)
            let bad = try VidrecProcess.run(["serve", "--camera", "test", "--listen", "127.0.0.1:0", "--allow-host", "pi.home:8080"], home: home.path)
            #expect(bad.code == 64 && bad.err.hasPrefix("Error: The value 'pi.home:8080' is invalid for '--allow-host <name>'"), "\(bad.err)")
        }

        /// A request without the token is refused before its body is read, a body larger
        /// than the API needs likewise, and the viewfinder streams open at once are
        /// capped (all share one feed): the ninth is refused until one closes.
        @Test func bodiesAreRefusedUnreadWithoutTheTokenAndViewersAreCapped() throws {
            let home = try Home()
            let serve = try VidrecProcess(["serve", "--camera", "test", "--quality", "low", "--listen", "127.0.0.1:0"], home: home.path)
            #expect(serve.waitForError(containing: "vidrec: serving "))
            let client = try ServeClient(serving: serve.errorSoFar)
            let large = home.path + "/large.json"
            try Data(repeating: UInt8(ascii: " "), count: 100_000).write(to: URL(fileURLWithPath: large))
            let withoutToken = try client.request("/api/start", ["--header", "Expect:", "--data-binary", "@" + large], cookie: false)
            #expect(withoutToken.status == 401, "\(withoutToken.status) \(withoutToken.text)")
            let tooLarge = try client.request("/api/start", ["--header", "Expect:", "--header", "X-Vidrec-Token: \(client.token)",
                                                             "--header", "Origin: \(client.base)", "--data-binary", "@" + large])
            #expect(tooLarge.status == 413 && tooLarge.text.contains("larger than 16384 bytes"), "\(tooLarge.status) \(tooLarge.text)")
            #expect(try home.pendingRows().isEmpty)

            // Eight streams, each seen to start (its first bytes are the 200's), then a ninth.
            /// A viewfinder stream and its status line.
            func viewer() throws -> (socket: Int32, status: String) {
                let socket = try client.openViewfinder()
                var head = [UInt8](repeating: 0, count: 64)
                let count = recv(socket, &head, head.count, 0)
                return (socket, String(String(decoding: head[0..<max(0, count)], as: UTF8.self).prefix { $0 != "\r" }))
            }
            var viewers: [Int32] = []
            defer { viewers.forEach { close($0) } }
            for _ in 0..<8 {
                let (socket, status) = try viewer()
                viewers.append(socket)
                #expect(status.hasPrefix("HTTP/1.") && status.contains(" 200 "), "viewer \(viewers.count): \(status)")
            }
            let ninth = try client.request("/viewfinder.mjpg")
            #expect(ninth.status == 503 && ninth.text.contains("8 viewfinders are open already"), "\(ninth.status) \(ninth.text)")
            // Once one closes (the server sees it at its next picture), another may open.
            close(viewers.removeLast())
            let reopened = try Poll.until { () -> Int32? in
                let (socket, status) = try viewer()
                guard status.contains(" 200 ") else {
                    close(socket)
                    return nil
                }
                return socket
            }
            #expect(reopened != nil, "a viewfinder once one of the eight closed")
            if let reopened { viewers.append(reopened) }
            serve.signal(SIGTERM)
            #expect(serve.wait().code == 0)
        }

        /// The API takes a preset's and a camera's name, never a path: a preset file, or
        /// any other file, is refused before anything runs, and so is a camera that
        /// vidrec did not find.
        @Test func theAPITakesPresetAndCameraNamesNeverPaths() throws {
            let home = try Home()
            let preset = home.path + "/mine.json"
            try FileManager.default.copyItem(atPath: VidrecProcess.presets + "/low.json", toPath: preset)
            let serve = try VidrecProcess(["serve", "--camera", "test", "--quality", "low", "--listen", "127.0.0.1:0"], home: home.path)
            #expect(serve.waitForError(containing: "vidrec: serving "))
            let client = try ServeClient(serving: serve.errorSoFar)
            for quality in [preset, "/etc/passwd", "../../etc/passwd", "mine.json"] {
                let refused = try client.post("start", ["quality": quality], origin: client.base)
                #expect(refused.status == 400 && (refused.json["error"] as? String)?.contains("The page records with a preset by its name: low, medium, high") == true,
                        "\(quality): \(refused.text)")
                #expect(!refused.text.contains("root:") && !refused.text.contains("libx264"), "nothing of the file: \(refused.text)")
            }
            #expect(try home.pendingRows().isEmpty)
            for camera in ["/dev/null", "/etc/passwd", home.path + "/mine.json", "/dev/v4l/by-id/../../null"] {
                let refused = try client.post("switch", ["camera": camera], origin: client.base)
                #expect(refused.status == 400 && (refused.json["error"] as? String)?.contains("is not a camera vidrec found") == true,
                        "\(camera): \(refused.text)")
            }
            serve.signal(SIGTERM)
            #expect(serve.wait().code == 0)
        }

        /// A recording from the page ends at exactly its `--max`.
        @Test func aRecordingFromThePageEndsAtItsMax() throws {
            let home = try Home()
            let serve = try VidrecProcess(["serve", "--camera", "test", "--mic", "test", "--listen", "0"], home: home.path)
            #expect(serve.waitForError(containing: "vidrec: serving "))
            let client = try ServeClient(serving: serve.errorSoFar)
            let started = try client.post("start", ["quality": "low", "max": 2])
            #expect(started.status == 200, "\(started.text)")
            let finished = try #require(Poll.until { () -> [String: Any]? in
                guard let rows = try? home.pendingRows(), let row = rows.first, row["state"] as? String == "finished" else { return nil }
                return row
            })
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            #expect(try Probe.streams(file).first.map { ($0.width, $0.height) } ?? (0, 0) == (640, 360))
            #expect(abs(try Probe.formatDuration(file) - 2) < 0.05, "\(finished)")
            #expect(try Probe.decodedFrameCount(file) == 30)
            serve.signal(SIGINT)
            #expect(serve.wait().code == 0)
        }

        /// With `--rotate` and `--mirror` the viewfinder shows the picture as players show
        /// the movie: the preview, and a recording from the page, which records so. The
        /// test camera's bars are white at the left and black at the right: mirrored and
        /// turned a quarter clockwise, black is at the top and white at the bottom.
        @Test func theViewfinderShowsThePictureTurnedAndMirroredAsRecorded() throws {
            let home = try Home()
            let serve = try VidrecProcess(["serve", "--camera", "test", "--mic", "test", "--quality", "low", "--listen", "0",
                                           "--rotate", "90", "--mirror"], home: home.path)
            #expect(serve.waitForError(containing: "vidrec: serving "))
            let client = try ServeClient(serving: serve.errorSoFar)
            func expectUpright(_ jpeg: Data, _ source: String) throws {
                let file = NSTemporaryDirectory() + "viewfinder-\(UUID().uuidString).jpg"
                try jpeg.write(to: URL(fileURLWithPath: file))
                defer { try? FileManager.default.removeItem(atPath: file) }
                let stream = try #require(try Probe.streams(file).first)
                #expect(stream.width == 360 && stream.height == 640, "\(source): \(stream)")
                let rgb = try Probe.rgbFrame(file, width: 360, height: 640)
                let (top, bottom) = (Probe.meanColour(rgb, width: 360, x: 170, y: 20, w: 20, h: 20),
                                     Probe.meanColour(rgb, width: 360, x: 170, y: 600, w: 20, h: 20))
                #expect(Probe.alike(top, OrientationEndToEndTests.black, tolerance: 40)
                            && Probe.alike(bottom, OrientationEndToEndTests.white, tolerance: 40), "\(source): top \(top), bottom \(bottom)")
            }
            try expectUpright(try #require(try client.pictures(1).first), "the preview")

            let started = try client.post("start", ["quality": "low", "max": 30])
            #expect(started.status == 200, "\(started.text)")
            let recording = try #require(Poll.until { () -> [String: Any]? in
                guard let state = try? client.state(), (state["viewfinder"] as? [String: Any])?["source"] as? String == "recording" else { return nil }
                return state["recording"] as? [String: Any]
            })
            try expectUpright(try #require(try client.pictures(2).last), "the recording")
            let stopped = try client.post("stop", ["id": try #require(recording["id"] as? String)])
            #expect(stopped.status == 200, "\(stopped.text)")
            #expect(Poll.until { (try? home.pendingRows())?.first?["state"] as? String == "finished" ? true : nil } == true)

            // The movie: stored as the camera sent it, but mirrored, with a quarter turn
            // for players, which then show it as the viewfinder did.
            let movie = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let info = try Probe.json(["-select_streams", "v", "-show_entries", "stream_side_data=rotation", movie])
            let sideData = ((info["streams"] as? [[String: Any]])?.first?["side_data_list"] as? [[String: Any]])?.first
            #expect(sideData?["rotation"] as? Int == -90, "\(String(describing: sideData))")
            let shown = try OrientationEndToEndTests.picture(movie, at: 0, width: 360, height: 640, autorotate: true)
            #expect(Probe.alike(Probe.meanColour(shown, width: 360, x: 170, y: 20, w: 20, h: 20), OrientationEndToEndTests.black, tolerance: 40))
            #expect(Probe.alike(Probe.meanColour(shown, width: 360, x: 170, y: 600, w: 20, h: 20), OrientationEndToEndTests.white, tolerance: 40))
            serve.signal(SIGTERM)
            #expect(serve.wait().code == 0)
        }

        /// With a certificate it speaks HTTPS, and the token's cookie is for HTTPS only.
        @Test func withACertificateItSpeaksHTTPSAndTheCookieIsSecure() throws {
            let home = try Home()
            let (certificate, key) = (home.path + "/cert.pem", home.path + "/key.pem")
            _ = try Probe.tool("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                                           "-days", "1", "-subj", "/CN=127.0.0.1"])
            let serve = try VidrecProcess(["serve", "--camera", "test", "--listen", "127.0.0.1:0", "--tls-cert", certificate, "--tls-key", key],
                                          home: home.path)
            #expect(serve.waitForError(containing: "vidrec: serving "))
            #expect(serve.errorSoFar.contains("vidrec: serving https://127.0.0.1:"), "\(serve.errorSoFar)")
            let client = try ServeClient(serving: serve.errorSoFar)
            let entry = try client.request("/?token=\(client.token)", cookie: false)
            #expect(entry.status == 303)
            #expect(entry.headers["set-cookie"] == "\(client.cookie); Path=/; HttpOnly; SameSite=Strict; Secure")
            #expect(try client.state()["quality"] as? String == "medium")
            serve.signal(SIGTERM)
            #expect(serve.wait().code == 0)
        }

        /// Beyond this machine without TLS: it says what that exposes, and what to do.
        @Test func listeningBeyondThisMachineWithoutTLSWarns() throws {
            let home = try Home()
            let serve = try VidrecProcess(["serve", "--camera", "test", "--listen", "0.0.0.0:0"], home: home.path)
            #expect(serve.waitForError(containing: "give --tls-cert and --tls-key"))
            #expect(serve.errorSoFar.contains("vidrec: listening beyond this machine without TLS: anyone on the network path can read the token"))
            serve.signal(SIGTERM)
            #expect(serve.wait().code == 0)
        }

        /// `--new-token` makes a new token and keeps it: the old one, its cookie and
        /// scripts holding it are shut out.
        @Test func aNewTokenShutsOutTheOldOne() throws {
            let home = try Home()
            func serve(_ options: [String]) throws -> (VidrecProcess, ServeClient) {
                let serve = try VidrecProcess(["serve", "--camera", "test", "--listen", "127.0.0.1:0"] + options, home: home.path)
                #expect(serve.waitForError(containing: "vidrec: serving "))
                return (serve, try ServeClient(serving: serve.errorSoFar))
            }
            let (first, old) = try serve([])
            #expect(try old.request("/api/state").status == 200)
            first.signal(SIGTERM)
            #expect(first.wait().code == 0)
            let (second, new) = try serve(["--new-token"])
            defer { second.signal(SIGTERM); _ = second.wait() }
            #expect(new.token != old.token)
            let tokenFile = home.path + "/.local/state/vidrec/serve-token"
            #expect(try String(contentsOfFile: tokenFile, encoding: .utf8) == new.token + "\n")
            var status = stat()
            #expect(stat(tokenFile, &status) == 0 && status.st_mode & 0o777 == 0o600)
            #expect(try new.request("/api/state").status == 200)
            let stale = try ServeClient.cookie(token: old.token, port: new.port)
            #expect(try new.request("/api/state", ["--header", "Cookie: \(stale)"], cookie: false).status == 401)
            #expect(try new.request("/api/state", ["--header", "X-Vidrec-Token: \(old.token)"], cookie: false).status == 401)
            #expect(try new.request("/?token=\(old.token)", cookie: false).status == 401)
        }

        /// The page in a real browser (headless Chromium, driven through its WebDriver by
        /// Tests/browser/serve_page.py): the viewfinder plays, Record makes a recording
        /// of the preset's size and `--max`, Photo a photo, Save puts the movie in the
        /// album under its name, the movie plays in the page and seeks to a frame, and
        /// Discard removes the photo.
        @Test func thePageInChromiumWatchesRecordsSnapsSavesPlaysAndDiscards() throws {
            let home = try Home()
            let serve = try VidrecProcess(["serve", "--camera", "test", "--mic", "test", "--listen", "127.0.0.1:0"], home: home.path)
            #expect(serve.waitForError(containing: "vidrec: serving "))
            let client = try ServeClient(serving: serve.errorSoFar)
            let profile = NSTemporaryDirectory() + "chromium-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: profile, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: profile) }
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("browser/serve_page.py").path
            let output = try Probe.tool("python3", [script, "\(client.base)/?token=\(client.token)", profile])
            let seen = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any], "\(String(decoding: output, as: UTF8.self))")
            #expect(seen["error"] == nil, "\(seen)")

            #expect((seen["withoutToken"] as? String)?.contains("asks for its token") == true, "\(seen)")
            #expect(seen["address"] as? String == client.base + "/", "the token's address goes on to the page")
            let viewfinder = try #require(seen["viewfinder"] as? [Int])
            #expect(viewfinder.count == 3 && zip(viewfinder, viewfinder.dropFirst()).allSatisfy { $0 < $1 }, "\(viewfinder)")
            #expect(seen["viewfinderSize"] as? [Int] == [640, 360])
            #expect((seen["cameraLine"] as? String)?.contains("test pattern") == true, "\(seen)")

            // The recording: the preset's size, exactly --max long, saved under its name.
            let file = home.album + "/door.mp4"
            let video = try #require(try Probe.streams(file).first)
            #expect(video.width == 640 && video.height == 360)
            #expect(abs(try Probe.formatDuration(file) - 2) < 0.05)
            let numbers = try Probe.frameNumbers(file, width: 640, height: 360)
            #expect(numbers.count == 30)
            #expect(abs((seen["duration"] as? Double ?? 0) - 2) < 0.05, "\(seen)")
            #expect(seen["posterWidth"] as? Int == 320)
            // Seeking in the page shows the file's 16th frame.
            #expect(abs((seen["seeked"] as? Double ?? 0) - (1 + 1.0 / 30)) < 0.01, "\(seen)")
            let afterSeek = try #require(seen["frameAfterSeek"] as? [Int], "\(seen)")
            #expect(afterSeek == [numbers[15], 640, 360], "numbers around it: \(numbers[13...17])")

            // The photo was taken, then discarded; nothing else is pending but the photo
            // taken on the phone (below).
            #expect(seen["photo"] as? String != nil && seen["discarded"] as? Bool == true)
            #expect(try home.pendingRows().map { $0["id"] as? String } == [seen["phonePhoto"] as? String], "\(seen)")
            #expect(FileManager.default.fileExists(atPath: seen["screenshot"] as? String ?? ""))
            // On a phone's screen: nothing wider than it, the viewfinder across it, the
            // buttons on it and big enough for a thumb, and a tap on Photo takes one.
            let phone = try #require(seen["phone"] as? [String: Any], "\(seen)")
            let width = try #require(phone["innerWidth"] as? Double ?? (phone["innerWidth"] as? Int).map(Double.init))
            #expect(width == 390 && (phone["scrollWidth"] as? Int ?? 999) <= 390, "\(phone)")
            for name in ["view", "start", "stop", "snap", "quality"] {
                let box = try #require((phone[name] as? [Any])?.compactMap { ($0 as? Double) ?? ($0 as? Int).map(Double.init) }, "\(phone)")
                #expect(box.count == 3 && box[0] >= 0 && box[1] <= width, "\(name): \(box)")
                if name == "view" { #expect(box[1] - box[0] >= width - 1, "the viewfinder fills the width: \(box)") }
                if ["start", "stop", "snap"].contains(name) { #expect(box[2] >= 36, "\(name) is big enough to tap: \(box)") }
            }
            let phonePhoto = try #require(seen["phonePhoto"] as? String, "\(seen)")
            #expect(try home.pendingRows().contains { $0["id"] as? String == phonePhoto && $0["kind"] as? String == "photo" })

            serve.signal(SIGTERM)
            #expect(serve.wait().code == 0)
        }
    }
}
