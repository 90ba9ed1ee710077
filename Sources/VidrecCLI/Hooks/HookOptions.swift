import VidrecCore
import VidrecMedia

/// `--on-saved`, `--on-event`, `--on-failure` and `--hook-timeout` on `vidrec start`.
enum HookOptions {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let onSaved = ArgumentKey.option("on-saved", value: "command", help: "Run this command after each file is saved (the recording, each segment or event, each photo), without a shell: its words split as systemd splits ExecStart= (quotes, backslash escapes); a word that is only $VIDREC_FILE (or another fact) becomes its value, and every fact is in its environment (VIDREC_EVENT, VIDREC_FILE, VIDREC_KIND, VIDREC_ID, VIDREC_PRESET, VIDREC_DURATION, VIDREC_TIME: the README's Hooks section lists them). Needs --save.")
        static let onEvent = ArgumentKey.option("on-event", value: "command", help: "Run this command when an event starts (VIDREC_EVENT=event-start) and when it ends (event-end), for a recording waiting for triggers (--pre/--post, --trigger).")
        static let onFailure = ArgumentKey.option("on-failure", value: "command", help: "Run this command when the recording ends with an error or cannot start (VIDREC_EVENT=failed, with VIDREC_REASON), or the camera goes away (camera-gone).")
        static let hookTimeout = ArgumentKey.option("hook-timeout", value: "duration", help: "Stop a hook (SIGTERM, then SIGKILL 2 s later) that runs longer than this (1s to 1h). Hooks run one at a time, beside the recording, which never waits for them. (default: 60s)")
    }

    /// The options' help.
    static let arguments: [ArgumentSpec] = [
        Key.onSaved.spec,
        Key.onEvent.spec,
        Key.onFailure.spec,
        Key.hookTimeout.spec,
    ]

    /// The default time limit of a hook, in seconds.
    static let defaultTimeLimit = 60.0

    /// Checks the options among `start`'s; `nil` when no hook is asked for.
    static func parse(_ arguments: ParsedArguments, _ options: StartOptions) throws(ParserError)
        -> (commands: RecordingHooks.Commands, timeLimit: Double)? {
        var commands = RecordingHooks.Commands()
        commands.saved = try command(arguments, Key.onSaved)
        commands.event = try command(arguments, Key.onEvent)
        commands.failure = try command(arguments, Key.onFailure)
        let timeText = arguments[Key.hookTimeout]
        guard commands.saved != nil || commands.event != nil || commands.failure != nil else {
            if timeText != nil { throw .conflicting("--hook-timeout <duration>", "no hook; add --on-saved, --on-event or --on-failure") }
            return nil
        }
        if commands.saved != nil, !options.save {
            throw .conflicting("--on-saved <command>", "a recording that is not saved; add --save")
        }
        if commands.event != nil, options.events == nil {
            throw .conflicting("--on-event <command>", "a recording that waits for no trigger; add --pre/--post or --trigger motion")
        }
        var timeLimit = defaultTimeLimit
        if let timeText {
            guard let seconds = Rational(duration: timeText), seconds >= Rational(1), seconds <= Rational(3600) else {
                throw .invalidValue(timeText, for: "--hook-timeout <duration>", reason: "give a time from 1 s to 1 h, such as 30s, 5m or 10 (seconds)")
            }
            timeLimit = seconds.doubleValue
        }
        return (commands, timeLimit)
    }

    /// One hook's command, split; `nil` when its option is not given.
    private static func command(_ arguments: ParsedArguments, _ key: ArgumentKey<String?>) throws(ParserError) -> HookCommandLine? {
        guard let text = arguments[key] else { return nil }
        do throws(HookCommandLine.Problem) {
            return try HookCommandLine(parsing: text)
        } catch {
            throw .invalidValue(text, for: key.spec.synopsis, reason: error.description)
        }
    }
}
