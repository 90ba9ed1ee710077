import Foundation
import Glibc
import Testing
import VidrecMedia
import VidrecSystem

extension EndToEndTests {
    /// The real binary against careless and hostile use: closed output streams, a
    /// crontab that cannot be read, a control socket reached by others or asked to write
    /// elsewhere, a damaged sidecar, names that reach the terminal, and secrets.
    @Suite struct HardeningEndToEndTests {
        static let start = ["start", "--camera", "test", "--mic", "test", "--quality", "low"]

        @Test func closedStandardOutputAndErrorNeverEndARecording() throws {
            let home = try Home()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: VidrecProcess.binary)
            process.arguments = Self.start + ["--max", "2", "--save", "--as", "kept"]
            process.environment = ["HOME": home.path, "PATH": "/usr/bin:/bin"]
            let out = Pipe(), err = Pipe()
            (process.standardOutput, process.standardError, process.standardInput) = (out, err, FileHandle.nullDevice)
            try process.run()
            // Nobody reads: every line vidrec writes meets EPIPE.
            try out.fileHandleForReading.close()
            try err.fileHandleForReading.close()
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 0)
            #expect(try Probe.decodedFrameCount(home.album + "/kept.mp4") == 30)
        }

        @Test func scheduleNeverReplacesACrontabItCouldNotRead() throws {
            let home = try Home()
            let table = home.path + "/crontab.txt", fake = home.path + "/crontab"
            try "0 3 * * * backup\n".write(toFile: table, atomically: true, encoding: .utf8)
            /// `schedule --install` with a stand-in crontab program whose `-l` prints
            /// `listing` on stderr and fails.
            func install(listing: String) throws -> (code: Int32, out: String, err: String) {
                try "#!/bin/sh\nif [ \"$1\" = -l ]; then echo \"\(listing)\" >&2; exit 1; else cat > \(table); fi\n"
                    .write(toFile: fake, atomically: true, encoding: .utf8)
                chmod(fake, 0o755)
                return try VidrecProcess.run(["schedule", "@hourly", "--install", "--", "--quality", "low"], home: home.path,
                                             environment: ["VIDREC_CRONTAB": fake])
            }
            // -l fails for another reason than "no crontab": nothing is written.
            let refused = try install(listing: "crontab: cannot open spool: Permission denied")
            #expect(refused.code == 1, "\(refused.err)")
            #expect(refused.err == "Error: crontab -l failed (status 1): crontab: cannot open spool: Permission denied; nothing was changed: fix cron, or add the line by hand\n")
            #expect(try String(contentsOfFile: table, encoding: .utf8) == "0 3 * * * backup\n")
            // "no crontab for USER" is an empty crontab; its words never enter the table.
            let installed = try install(listing: "no crontab for $(id -un)")
            #expect(installed.code == 0, "\(installed.err)")
            let lines = try String(contentsOfFile: table, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 1 && lines[0].hasPrefix("@hourly \(VidrecProcess.binary) start --quality low --log "), "\(lines)")
        }

        @Test func uploadingIntoTheAlbumItselfIsRefusedBeforeRecording() throws {
            let home = try Home()
            for destination in [home.album, ":local:" + home.album, home.path + "/Videos/../Videos/vidrec"] {
                let result = try VidrecProcess.run(Self.start + ["--max", "1", "--save", "--upload", destination, "--upload-move"], home: home.path)
                #expect(result.code == 64, "\(result.err)")
                #expect(result.err == "Error: --upload \(destination) is the album itself, so the upload would copy each file onto itself and --upload-move would remove it; upload to another folder or a remote\n")
            }
            #expect(try home.pendingRows().isEmpty, "nothing was recorded")
        }

        /// The socket lives in the private runtime folder, named in the sidecar; a photo
        /// goes into the pending folder only; another user gets no answer.
        @Test func theControlSocketAnswersOnlyItsUserAndWritesPhotosOnlyIntoPending() throws {
            let home = try Home()
            let runtime = home.path + "/run"
            let environment = ["XDG_RUNTIME_DIR": runtime]
            try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
            let recording = try VidrecProcess(Self.start, home: home.path, environment: environment)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            let socket = try #require(try home.sidecar()["controlSocket"] as? String)
            #expect(socket.hasPrefix(runtime + "/vidrec/") && socket.hasSuffix(".sock"), "\(socket)")
            var info = stat()
            #expect(lstat(runtime + "/vidrec", &info) == 0 && info.st_mode & 0o777 == 0o700)
            #expect(lstat(socket, &info) == 0 && info.st_mode & 0o777 == 0o600)

            // A request to write the photo anywhere else is refused, and nothing is written.
            let elsewhere = home.path + "/elsewhere.jpg"
            let connection = try FileDescriptor.connectedSocket(to: socket)
            let request = Array("{\"command\":\"snap\",\"path\":\"\(elsewhere)\"}\n".utf8)
            let reply = try connection.closeAfter {
                try request.withUnsafeBytes { try connection.sendAll($0.baseAddress!, count: $0.count, socket) }
                return try connection.readLine(within: 60, socket)
            }
            #expect(reply.contains("a photo goes only into the pending folder"), "\(reply)")
            #expect(!FileManager.default.fileExists(atPath: elsewhere))
            // vidrec snap, as the same user, is answered.
            let snap = try VidrecProcess.run(["snap", "--camera", "test"], home: home.path, environment: environment)
            #expect(snap.code == 0 && snap.err.contains("taken from recording"), "\(snap.err)")

            if geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
                try Self.expectNoAnswerToAnotherUser(socket: socket, runtime: runtime)
                try Self.expectAClientRefusesAnotherUsersSocket(home)
            }
            recording.signal(SIGINT)
            let ended = recording.wait()
            #expect(ended.code == 0, "\(ended.err)")
            #expect(!FileManager.default.fileExists(atPath: socket), "the socket goes with the recording")
        }

        /// Opened up by hand, the control socket still answers no other user: the
        /// connection closes unanswered.
        static func expectNoAnswerToAnotherUser(socket: String, runtime: String) throws {
            chmod(runtime + "/vidrec", 0o711)
            chmod(socket, 0o666)
            let other = Process()
            other.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            other.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                               "import socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.connect(sys.argv[1])\ntry:\n  s.sendall(b'{\"command\":\"trigger\"}\\n')\n  print(repr(s.recv(100)))\nexcept ConnectionError:\n  print('closed')",
                               socket]
            let printed = Pipe(), complaints = Pipe()
            (other.standardOutput, other.standardError) = (printed, complaints)
            try other.run()
            let text = String(decoding: printed.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let errors = String(decoding: complaints.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            other.waitUntilExit()
            // Closed unanswered: an empty read, or the connection reset or broken.
            #expect(text == "b''\n" || text == "closed\n", "another user got: \(text) \(errors)")
        }

        /// A client refuses a socket another user listens on in the recording's place.
        static func expectAClientRefusesAnotherUsersSocket(_ home: Home) throws {
            let trap = home.path + "/trap"
            try FileManager.default.createDirectory(atPath: trap, withIntermediateDirectories: true)
            chmod(home.path, 0o755)
            chmod(trap, 0o777)
            let listener = Process()
            listener.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            listener.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c",
                                  "import os,socket,sys\ns=socket.socket(socket.AF_UNIX)\ns.bind(sys.argv[1])\nos.chmod(sys.argv[1],0o777)\ns.listen(1)\nprint('ready',flush=True)\nc,_=s.accept()\nc.recv(10)",
                                  trap + "/fake.sock"]
            let ready = Pipe()
            listener.standardOutput = ready
            try listener.run()
            defer { if listener.isRunning { listener.terminate() } }
            // Waits for the listener's whole line (a busy machine may hand it over in pieces).
            var said = ""
            while !said.contains("\n") {
                let chunk = ready.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                said += String(decoding: chunk, as: UTF8.self)
            }
            #expect(said == "ready\n")
            #expect {
                try FileDescriptor.connectedSocket(to: trap + "/fake.sock").close()
            } throws: { error in
                (error as? SystemError)?.errno == EPERM
            }
        }

        @Test func savingTheFirstSegmentKeepsTheRecordingsControlSocket() throws {
            let home = try Home()
            let recording = try VidrecProcess(Self.start + ["--segment", "1", "--save", "--name", "part-%H%M%S"], home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            // The first segment is saved, its sidecar gone from pending…
            let saved = Poll.until { home.files(in: home.album, ending: ".mp4").isEmpty ? nil : true }
            #expect(saved == true)
            // …and the recording is still reachable.
            let snap = try VidrecProcess.run(["snap", "--camera", "test"], home: home.path)
            #expect(snap.code == 0 && snap.err.contains("taken from recording"), "\(snap.err)")
            recording.signal(SIGINT)
            #expect(recording.wait().code == 0)
        }

        @Test func aRecordingWhoseSidecarIsDamagedIsListedAndSavedWhole() throws {
            let home = try Home()
            let made = try VidrecProcess.run(Self.start + ["--max", "1"], home: home.path)
            #expect(made.code == 0, "\(made.err)")
            let sidecar = try #require(home.files(in: home.pending, ending: ".json").first)
            try "{\"id\": 12, \"state\"".write(toFile: sidecar, atomically: true, encoding: .utf8)
            let pending = try VidrecProcess.run(["pending"], home: home.path)
            #expect(pending.code == 0)
            #expect(pending.out.contains("finished*") && pending.out.contains("* its sidecar was damaged or missing"), "\(pending.out)")
            let save = try VidrecProcess.run(["save", "--as", "rescued"], home: home.path)
            #expect(save.code == 0, "\(save.err)")
            #expect(try Probe.decodedFrameCount(home.album + "/rescued.mp4") == 15)
        }

        @Test func namesVidrecDidNotChooseArePrintedAsEscapes() throws {
            let home = try Home()
            try FileManager.default.createDirectory(atPath: home.album, withIntermediateDirectories: true)
            try Data("not a movie".utf8).write(to: URL(fileURLWithPath: home.album + "/evil\u{1B}[2J\u{9B}1m.mp4"))
            let list = try VidrecProcess.run(["list"], home: home.path)
            #expect(list.code == 0, "\(list.err)")
            #expect(list.out.contains("*evil\\u{1B}[2J\\u{9B}1m.mp4"), "\(list.out)")
            #expect(!list.out.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" })
            let show = try VidrecProcess.run(["show", "evil\u{1B}[2J\u{9B}1m.mp4"], home: home.path)
            #expect(show.code == 64, "a control character is refused on the command line: \(show.err)")
        }

        @Test func aDamagedPosterFrameIsLeftOutOfTheContactSheetNotTheSheet() throws {
            let home = try Home()
            for name in ["good", "bad"] {
                let made = try VidrecProcess.run(Self.start + ["--max", "1", "--save", "--as", name], home: home.path)
                #expect(made.code == 0, "\(made.err)")
            }
            try Data("not a picture".utf8).write(to: URL(fileURLWithPath: home.album + "/.thumbnails/bad.mp4.jpg"))
            let sheet = try VidrecProcess.run(["sheet", "--album", home.album, "-o", home.path + "/sheet.jpg"], home: home.path)
            #expect(sheet.code == 0, "\(sheet.err)")
            #expect(sheet.err.contains("vidrec: left out of the contact sheet: \(home.album)/.thumbnails/bad.mp4.jpg ("), "\(sheet.err)")
            // One tile wide: the good recording's.
            #expect(try Probe.streams(home.path + "/sheet.jpg").first?.width == 320)
        }

        /// While a recording runs, its `/proc/PID/cmdline`, which every local user reads,
        /// shows none of the secrets it was given: an upload key and a stream key are
        /// overwritten with `*`, the rest of the command line is as given.
        @Test func aRunningRecordingsCommandLineShowsNoSecret() throws {
            let home = try Home()
            let key = "hush\(UUID().uuidString.prefix(8))"
            let stream = "stream\(UUID().uuidString.prefix(12))"
            let arguments = Self.start + ["--max", "600", "--save", "--upload", ":local,secret_access_key=\(key):\(home.path)/up",
                                          "--live=rtmp://127.0.0.1:1/live/\(stream)"]
            let recording = try VidrecProcess(arguments, home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            let cmdline = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(recording.pid)/cmdline"))
            let seen = cmdline.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
            recording.signal(SIGTERM)
            let ended = recording.wait()
            #expect(ended.code == 0, "\(ended.err)")
            let expected = [VidrecProcess.binary] + Self.start + ["--max", "600", "--save", "--upload",
                            ":local,secret_access_key=\(String(repeating: "*", count: key.count)):\(home.path)/up",
                            "--live=rtmp://127.0.0.1:1/live/\(stream.prefix(4))\(String(repeating: "*", count: stream.count - 4))"]
            #expect(seen == expected)
            #expect(!ended.err.contains(key) && !ended.err.contains(stream), "\(ended.err)")
        }

        /// An on-the-fly remote's keys, against a real S3 API (moto): never in a message,
        /// a listing or rclone's argv; rclone gets them in its environment.
        @Test func secretsNeverReachMessagesListingsOrArgv() throws {
            try #require(S3Server.isInstalled, "moto or rclone is missing: run scripts/install-deps --servers")
            let home = try Home()
            let server = try S3Server(folder: home.path + "/s3")
            // rclone, wrapped to record its argv.
            let wrapper = home.path + "/bin"
            try FileManager.default.createDirectory(atPath: wrapper, withIntermediateDirectories: true)
            let argvLog = home.path + "/argv.log"
            try "#!/bin/sh\nprintf '%s\\n' \"$*\" >> \(argvLog)\nexec /usr/bin/rclone \"$@\"\n".write(toFile: wrapper + "/rclone", atomically: true, encoding: .utf8)
            chmod(wrapper + "/rclone", 0o755)
            let secret = "hush-\(UUID().uuidString)"
            let remote = ":s3,provider=Other,env_auth=false,access_key_id=test,secret_access_key=\(secret),endpoint='http://127.0.0.1:\(server.port)',region=us-east-1:clips"
            let environment = ["PATH": wrapper + ":/usr/bin:/bin"]
            server.kill()
            let first = try VidrecProcess.run(Self.start + ["--max", "1", "--save", "--as", "door", "--upload", remote], home: home.path, environment: environment)
            #expect(first.code == 75, "the store is down: \(first.err)")
            let listing = try VidrecProcess.run(["upload", "--list", "--json"], home: home.path)
            #expect(listing.out.contains("secret_access_key=***") && !listing.out.contains(secret), "\(listing.out)")
            try server.start()
            let upload = try VidrecProcess.run(["upload"], home: home.path, environment: environment)
            #expect(upload.code == 0, "\(upload.err)")
            #expect(upload.err.contains("to :s3,provider=Other,env_auth=false,access_key_id=***,secret_access_key=***,endpoint='http://127.0.0.1:\(server.port)',region=us-east-1:clips/door.mp4 (verified: md5 "),
                    "\(upload.err)")
            #expect(server.objects("clips")["door.mp4"]?.md5 == (try UploadEndToEndTests.md5(home.album + "/door.mp4")))
            let argv = try String(contentsOfFile: argvLog, encoding: .utf8)
            #expect(argv.contains("copyto -- \(home.album)/door.mp4 vidrecupload:clips/door.mp4"), "paths after '--': \(argv)")
            for text in [first.err, first.out, upload.err, upload.out, argv] {
                #expect(!text.contains(secret), "the secret leaked: \(text)")
            }
        }
    }
}
