import Foundation
import Glibc
import Testing

extension EndToEndTests {
    /// `vidrec schedule --systemd` and `vidrec service`: the units pass `systemd-analyze
    /// verify`, and systemd's own unit loader (`systemd --test`, which loads units and
    /// prints what it read) reads from them the command vidrec meant, which, run, records
    /// what was asked. No service manager is started: the machines running the tests
    /// have none for the user.
    @Suite struct SystemdEndToEndTests {
        /// Runs the program at `path` with `arguments` in a minimal environment plus
        /// `environment`; returns its status and what it printed (stdout and stderr).
        static func runTool(_ path: String, _ arguments: [String], environment: [String: String],
                            in directory: String? = nil) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.environment = ["PATH": "/usr/bin:/bin", "LANG": "C"].merging(environment) { $1 }
            if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
            let out = Pipe()
            process.standardOutput = out
            process.standardError = out
            try process.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }

        /// Runs `body` with a new temporary folder of `mode`, removed afterwards.
        static func withFolder<T>(_ prefix: String, mode: mode_t, _ body: (String) throws -> T) throws -> T {
            let folder = NSTemporaryDirectory() + "\(prefix)-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            chmod(folder, mode)
            return try body(folder)
        }

        /// What systemd reads from `unit` in `folder`: its part of `systemd --test`'s dump.
        /// systemd refuses test mode as root, so as root it runs as nobody, on a copy of
        /// the units nobody can read.
        static func systemdReads(_ unit: String, in folder: String) throws -> String {
            let text = try withFolder("vidrec-units", mode: 0o755) { copy in
                for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                    try FileManager.default.copyItem(atPath: folder + "/" + name, toPath: copy + "/" + name)
                    chmod(copy + "/" + name, 0o644)
                }
                let systemd = ["/lib/systemd/systemd", "--test", "--system", "--unit=\(unit)", "--no-pager", "--log-target=console"]
                return try geteuid() == 0
                    ? runTool("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups"] + systemd,
                              environment: ["SYSTEMD_UNIT_PATH": copy + ":"], in: "/").output
                    : runTool(systemd[0], Array(systemd.dropFirst()), environment: ["SYSTEMD_UNIT_PATH": copy + ":"], in: "/").output
            }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let start = try #require(lines.firstIndex(of: "\t-> Unit \(unit):"), "systemd --test did not load \(unit): \(text.suffix(2000))")
            let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("\t-> Unit ") } ?? lines.endIndex
            return lines[start..<end].joined(separator: "\n")
        }

        /// The arguments systemd runs, from its dump's `Command Line:` (which quotes an
        /// argument as the shell would: in double quotes, `"`, `\`, `` ` `` and `$`
        /// escaped), with `$$` made `$` as systemd does when it runs the command.
        static func commandLine(_ dump: String) throws -> [String] {
            let line = try #require(dump.split(separator: "\n").first { $0.contains("Command Line: ") })
            let text = line.components(separatedBy: "Command Line: ")[1]
            var arguments: [String] = [], current = "", inQuotes = false, escaped = false, started = false
            for character in text {
                if escaped { current.append(character); escaped = false; continue }
                switch character {
                case "\\" where inQuotes: escaped = true
                case "\"": inQuotes.toggle(); started = true
                case " " where !inQuotes:
                    if started || !current.isEmpty { arguments.append(current) }
                    current = ""; started = false
                default: current.append(character)
                }
            }
            if started || !current.isEmpty { arguments.append(current) }
            return arguments.map { $0.replacingOccurrences(of: "$$", with: "$") }
        }

        /// `systemd-analyze verify` on the units (as user units, the manual page not
        /// looked up: the tests run the binary from the build folder).
        static func verify(_ paths: [String]) throws -> (status: Int32, output: String) {
            try withFolder("vidrec-runtime", mode: 0o700) { runtime in
                try runTool("/usr/bin/systemd-analyze", ["verify", "--user", "--man=no"] + paths,
                            environment: ["XDG_RUNTIME_DIR": runtime])
            }
        }

        @Test func aScheduledTimerRunsTheCommandVidrecMeantEvenWithSpecifiersQuotesAndVariables() throws {
            let home = try Home()
            let name = #"door %H $HOME "x" \y 'z' ;"#
            let options = ["--camera", "test", "--mic", "test", "--quality", "low", "--max", "1", "--save", "--as", name]
            let installed = try VidrecProcess.run(["schedule", "*/15 9-17 * * mon-fri", "--systemd", "--name", "door", "--install", "--"] + options,
                                                  home: home.path)
            #expect(installed.code == 0, "\(installed.err)")
            let folder = home.path + "/.config/systemd/user"
            let paths = [folder + "/vidrec-door.service", folder + "/vidrec-door.timer"]
            #expect(installed.out == paths.map { $0 + "\n" }.joined())
            #expect(installed.err.contains("systemctl --user enable --now vidrec-door.timer"), "\(installed.err)")
            let verified = try Self.verify(paths)
            #expect(verified.status == 0, "\(verified.output)")

            let timer = try String(contentsOfFile: paths[1], encoding: .utf8)
            #expect(timer.contains("OnCalendar=Mon,Tue,Wed,Thu,Fri *-*-* 9..17:0,15,30,45:00\nPersistent=true\n"), "\(timer)")
            let service = try Self.systemdReads("vidrec-door.service", in: folder)
            #expect(service.contains("\t\tType: oneshot\n"), "\(service)")
            #expect(service.contains("\t\tTimeoutStartSec: infinity\n"), "a recording is never cut short: \(service)")
            let command = try Self.commandLine(service)
            #expect(command == [VidrecProcess.binary, "start"] + options, "\(service)")

            // Run as systemd would run it: it records, and saves under the exact name.
            let run = try VidrecProcess.run(Array(command.dropFirst()), home: home.path)
            #expect(run.code == 0, "\(run.err)")
            let saved = home.album + "/" + name + ".mp4"
            #expect(run.out == saved + "\n", "\(run.out) \(run.err)")
            #expect(try Probe.decodedFrameCount(saved) == 15, "1 s at the low preset's 15 fps")

            // Installing the same again changes nothing; another job under the same name
            // is refused, and the units stay as they were.
            let again = try VidrecProcess.run(["schedule", "*/15 9-17 * * mon-fri", "--systemd", "--name", "door", "--install", "--"] + options,
                                              home: home.path)
            #expect(again.code == 0 && again.err.contains("already installed"), "\(again.err)")
            let other = try VidrecProcess.run(["schedule", "@daily", "--systemd", "--name", "door", "--install", "--", "--max", "5"], home: home.path)
            #expect(other.code == 73, "\(other.err)")
            #expect(other.err.hasPrefix("Error: \(paths[0]) exists and says something else; nothing was written"), "\(other.err)")
            #expect(try String(contentsOfFile: paths[1], encoding: .utf8) == timer)
        }

        @Test func rebootBecomesAStartupTimer() throws {
            let home = try Home()
            let printed = try VidrecProcess.run(["schedule", "@reboot", "--systemd", "--", "--max", "10"], home: home.path)
            #expect(printed.code == 0, "\(printed.err)")
            #expect(printed.out.contains("# \(home.path)/.config/systemd/user/vidrec-schedule.timer\n"), "\(printed.out)")
            #expect(printed.out.contains("\nOnStartupSec=0\n") && !printed.out.contains("OnCalendar"), "\(printed.out)")
            #expect(!FileManager.default.fileExists(atPath: home.path + "/.config/systemd"), "printing writes nothing")
        }

        /// The packaged template, `vidrec@PRESET.service` (`systemd/vidrec@.service.in`,
        /// here pointing at the build's binary): systemd reads from it a continuous
        /// recording at the preset the instance names, with the same restart and
        /// sandboxing settings as `vidrec service` writes; run (with the test sources for
        /// the default devices) and stopped as `systemctl stop` stops it, it saves its
        /// segment under the template's name.
        @Test func theTemplateUnitRecordsContinuouslyAtTheInstancesPreset() throws {
            let template = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("systemd/vidrec@.service.in"), encoding: .utf8)
            let binary = URL(fileURLWithPath: VidrecProcess.binary).deletingLastPathComponent().path
            let home = try Home()
            let folder = home.path + "/units"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try template.replacingOccurrences(of: "@BINDIR@", with: binary).write(toFile: folder + "/vidrec@.service", atomically: true, encoding: .utf8)
            let service = try Self.systemdReads("vidrec@low.service", in: folder)
            let command = try Self.commandLine(service)
            #expect(command == [VidrecProcess.binary, "start", "--quality", "low", "--segment", "10m", "--segment-at-clock", "--save",
                                "--name", "vidrec-low-%Y%m%d-%H%M%S", "--max-age", "7d"], "\(service)")

            // The same settings as the units vidrec writes.
            let written = try VidrecProcess.run(["service", "porch", "--", "--max", "1"], home: home.path).out
            func settings(_ unit: String) -> [Substring] {
                unit.split(separator: "\n").filter { $0.contains("=") && !$0.hasPrefix("#") && !$0.hasPrefix("Description=") && !$0.hasPrefix("ExecStart=") }
            }
            #expect(settings(template) == settings(written), "\(written)")

            let child = try VidrecProcess(Array(command.dropFirst()) + ["--camera", "test", "--mic", "test"], home: home.path)
            #expect(child.waitForError(containing: "vidrec: recording"))
            // A segment with frames in it: a stop before the first frame leaves nothing
            // to save.
            #expect(try child.waitUntilRecorded(0.5) != nil)
            child.signal(SIGTERM)
            let ended = child.wait()
            #expect(ended.code == 0, "\(ended.err)")
            let saved = home.files(in: home.album, ending: ".mp4")
            #expect(saved.count == 1 && saved.allSatisfy { $0.hasPrefix(home.album + "/vidrec-low-") }, "\(saved) \(ended.err)")
            #expect(ended.out == saved.map { $0 + "\n" }.joined(), "\(ended.out)")
            if let movie = saved.first { #expect(try Probe.decodedFrameCount(movie) > 0) }
        }

        /// Secrets in the start options (an upload remote's key, a stream key) stay out of
        /// the unit: they go into a 0600 environment file the unit names, and systemd
        /// reads `${VARIABLE}` in their place; the file, read as systemd reads it, gives
        /// back exactly what was given.
        @Test func secretsGoIntoAPrivateEnvironmentFileNotTheUnit() throws {
            let home = try Home()
            let key = "K3y$`\\\"'x-\(UUID().uuidString)"
            let upload = ":s3,provider=AWS,secret_access_key='\(key.replacing("'", with: "''"))':bucket/door"
            let live = "rtmp://127.0.0.1/live/stream-\(UUID().uuidString)"
            let options = ["--camera", "test", "--quality", "low", "--save", "--upload=" + upload, "--live", live]
            let printed = try VidrecProcess.run(["service", "porch", "--"] + options, home: home.path)
            #expect(printed.code == 0, "\(printed.err)")
            let installed = try VidrecProcess.run(["service", "porch", "--install", "--"] + options, home: home.path)
            #expect(installed.code == 0, "\(installed.err)")
            let folder = home.path + "/.config/systemd/user"
            let environmentFile = home.path + "/.config/vidrec/vidrec-porch.env"
            #expect(installed.out == folder + "/vidrec-porch.service\n" + environmentFile + "\n")
            let unit = try String(contentsOfFile: folder + "/vidrec-porch.service", encoding: .utf8)
            for text in [unit, printed.out, printed.err, installed.err] {
                #expect(!text.contains(key) && !text.contains(String(live.suffix(36))), "a secret shows: \(text)")
            }
            #expect(printed.out.contains("VIDREC_UPLOAD=\":s3,provider=AWS,secret_access_key=***:bucket/door\""), "\(printed.out)")
            #expect(try Self.verify([folder + "/vidrec-porch.service"]).status == 0)
            let service = try Self.systemdReads("vidrec-porch.service", in: folder)
            #expect(service.contains("\t\tEnvironmentFile: \(environmentFile)"), "\(service)")
            #expect(try Self.commandLine(service) == [VidrecProcess.binary, "start", "--camera", "test", "--quality", "low", "--save",
                                                        "--upload", "${VIDREC_UPLOAD}", "--live", "${VIDREC_LIVE}"], "\(service)")
            var status = stat()
            #expect(stat(environmentFile, &status) == 0 && status.st_mode & 0o777 == 0o600)
            // systemd reads the file as the shell reads double-quoted values.
            let read = try Self.runTool("/bin/sh", ["-c", "set -a; . \"$0\"; printf '%s\\0' \"$VIDREC_UPLOAD\" \"$VIDREC_LIVE\"", environmentFile],
                                        environment: [:])
            #expect(read.output.split(separator: "\0").map(String.init) == [upload, live], "\(read.output)")
        }

        @Test func aContinuousServiceRestartsOnFailureButNotOnBadOptions() throws {
            let home = try Home()
            let options = ["--camera", "test", "--mic", "test", "--quality", "low", "--segment", "600", "--save", "--name", "porch-%Y%m%d-%H%M%S"]
            let installed = try VidrecProcess.run(["service", "porch", "--install", "--"] + options, home: home.path)
            #expect(installed.code == 0, "\(installed.err)")
            let folder = home.path + "/.config/systemd/user"
            let path = folder + "/vidrec-porch.service"
            #expect(installed.out == path + "\n")
            #expect(installed.err.contains("systemctl --user enable --now vidrec-porch.service"), "\(installed.err)")
            let verified = try Self.verify([path])
            #expect(verified.status == 0, "\(verified.output)")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains("\nRestartPreventExitStatus=64 65\n") && text.contains("\nWantedBy=default.target\n"), "\(text)")
            let service = try Self.systemdReads("vidrec-porch.service", in: folder)
            for setting in ["Type: exec", "Restart: on-failure", "RestartSec: 10s", "TimeoutStopSec: 1min", "RestrictRealtime: yes",
                            "SystemCallArchitectures: native"] {
                #expect(service.contains("\t\t\(setting)\n"), "\(setting): \(service)")
            }
            #expect(try Self.commandLine(service) == [VidrecProcess.binary, "start"] + options, "\(service)")
        }
    }
}
