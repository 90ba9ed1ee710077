import VidrecMedia
import VidrecSystem

/// A systemd user unit that runs `vidrec start`: a timer and the one-shot service it
/// starts (``timer(name:schedule:)``, ``scheduledService(name:binary:startArguments:)``),
/// or a service that records continuously and restarts when the recording fails
/// (``recordingService(name:binary:startArguments:)``).
///
/// The command line is built so that no argument can change what systemd runs: every
/// argument double-quoted with `\` and `"` escaped, `%` (a specifier) written `%%` and
/// `$` (a variable) `$$`, and control characters, which would end the `ExecStart=` line
/// and start another directive, refused.
public struct SystemdUnit: Sendable, Equatable {
    /// The unit's file name, as in `vidrec-NAME.timer`.
    public let fileName: String
    /// The unit file's contents.
    public let text: String

    /// What ``isValidName(_:)`` allows, for messages.
    public static let nameRule = "use 1 to 64 letters, digits, '-' or '_'"

    /// Whether `name` can name a unit (`vidrec-NAME.service`): letters, digits, `-` and
    /// `_`, 1 to 64 of them (systemd allows more; these need no escaping anywhere).
    public static func isValidName(_ name: String) -> Bool {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_".unicodeScalars)
        return (1...64).contains(name.unicodeScalars.count) && name.unicodeScalars.allSatisfy { allowed.contains($0) }
    }

    /// The timer that starts `vidrec-NAME.service` at `schedule`. A calendar timer is
    /// `Persistent=`: a machine that was off (or asleep) at a time runs the job once when
    /// it is back. `AccuracySec=1s`: systemd's default minute of slack would start a
    /// recording up to a minute late.
    public static func timer(name: String, schedule: SystemdSchedule) -> SystemdUnit {
        var lines = ["[Unit]", "Description=vidrec: record on a schedule (vidrec-\(name).service)",
                     "Documentation=man:vidrec(1)", "", "[Timer]"]
        switch schedule {
        case .calendar(let expressions):
            lines += expressions.map { "OnCalendar=\($0)" }
            lines.append("Persistent=true")
        case .atStartup:
            lines.append("OnStartupSec=0")
        }
        lines += ["AccuracySec=1s", "", "[Install]", "WantedBy=timers.target"]
        return SystemdUnit(fileName: "vidrec-\(name).timer", text: lines.joined(separator: "\n") + "\n")
    }

    /// The one-shot service a timer starts: one recording, with no time limit on its
    /// start (a oneshot's start lasts until the recording ends).
    ///
    /// - Throws: ``Refused`` naming the argument systemd would mangle.
    public static func scheduledService(name: String, binary: String, startArguments: [String],
                                        secrets: SystemdSecrets? = nil) throws(Refused) -> SystemdUnit {
        let lines = ["[Unit]", "Description=vidrec: scheduled recording (vidrec-\(name).timer)", "Documentation=man:vidrec(1)", "",
                     "[Service]", "Type=oneshot"] + (try environment(secrets))
            + ["ExecStart=" + (try execLine(binary: binary, startArguments: startArguments, variables: secrets?.variables ?? [:])),
               "TimeoutStartSec=infinity"] + hardening
        return SystemdUnit(fileName: "vidrec-\(name).service", text: lines.joined(separator: "\n") + "\n")
    }

    /// A service that records continuously: started with the user's session (or at boot
    /// with lingering), restarted 10 s after a failure (a camera unplugged, a full disk
    /// cleared), not after a usage error or a broken preset (exit 64, 65), which would
    /// fail again. `systemctl --user stop` sends SIGTERM: the recording ends as with
    /// `vidrec stop`, and what was recorded is kept.
    ///
    /// - Throws: ``Refused`` naming the argument systemd would mangle.
    public static func recordingService(name: String, binary: String, startArguments: [String],
                                        secrets: SystemdSecrets? = nil) throws(Refused) -> SystemdUnit {
        let lines = ["[Unit]", "Description=vidrec: continuous recording \(name)", "Documentation=man:vidrec(1)",
                     "StartLimitIntervalSec=0", "",
                     "[Service]", "Type=exec"] + (try environment(secrets))
            + ["ExecStart=" + (try execLine(binary: binary, startArguments: startArguments, variables: secrets?.variables ?? [:])),
               "Restart=on-failure", "RestartSec=10", "RestartPreventExitStatus=64 65", "TimeoutStopSec=60"]
            + hardening + ["", "[Install]", "WantedBy=default.target"]
        return SystemdUnit(fileName: "vidrec-\(name).service", text: lines.joined(separator: "\n") + "\n")
    }

    /// Sandboxing that works in a user service and leaves the camera, the microphone
    /// and the user's files reachable: no new privileges, no odd personalities or
    /// foreign system-call ABIs, no realtime scheduling taken.
    static let hardening = ["NoNewPrivileges=yes", "LockPersonality=yes", "RestrictRealtime=yes",
                            "SystemCallArchitectures=native"]

    /// `binary start arguments…` as an `ExecStart=` command line; the argument at each
    /// index of `variables` is written `${NAME}`, which systemd replaces with the
    /// variable's value as one argument when it runs the command.
    public static func execLine(binary: String, startArguments: [String], variables: [Int: String] = [:]) throws(Refused) -> String {
        for argument in [binary] + startArguments where TextSafety.hasControlCharacters(argument) {
            throw Refused(argument: argument, reason: "it holds a control character (a newline, tab or escape), which would end or change the unit's ExecStart= line; remove it")
        }
        let words = startArguments.enumerated().map { index, argument in variables[index].map { "${\($0)}" } ?? quote(argument) }
        return ([quote(binary), "start"] + words).joined(separator: " ")
    }

    /// The `EnvironmentFile=` line of `secrets`, if any.
    static func environment(_ secrets: SystemdSecrets?) throws(Refused) -> [String] {
        guard let secrets else { return [] }
        guard !TextSafety.hasControlCharacters(secrets.path) else {
            throw Refused(argument: secrets.path, reason: "it holds a control character, which would end the unit's EnvironmentFile= line; set XDG_CONFIG_HOME to a plain folder")
        }
        return ["EnvironmentFile=" + secrets.path.replacing("%", with: "%%")]
    }

    /// Quotes one argument for an `ExecStart=` line (systemd.service(5), "Command
    /// lines"): as it is when it is plain (letters, digits, `-_./:=@,+`), else in double
    /// quotes, `\` and `"` escaped, `%` doubled (specifiers are
    /// expanded first, quotes or not), `$` doubled (variables too).
    public static func quote(_ argument: String) -> String {
        if TextSafety.isPlainWord(argument) { return argument }
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in argument.unicodeScalars {
            switch scalar {
            case "\\", "\"": quoted.append("\\"); quoted.append(scalar)
            case "%": quoted.append(contentsOf: "%%".unicodeScalars)
            case "$": quoted.append(contentsOf: "$$".unicodeScalars)
            default: quoted.append(scalar)
            }
        }
        quoted.append("\"")
        return String(quoted)
    }

    /// Why a unit was not built.
    public struct Refused: Error, Sendable, Equatable {
        /// The argument at fault.
        public var argument: String
        /// What is wrong and what to do.
        public var reason: String
    }
}

extension SystemdUnit.Refused: ExitCoded {
    public var exitCode: ExitCode { .usage }
}
