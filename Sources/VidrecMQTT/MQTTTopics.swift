/// The topics vidrec publishes and reads under a prefix (``MQTTAddress/prefix``), in one
/// place for `vidrec serve --mqtt` and `vidrec start --mqtt`:
///
/// | topic | retained | what it holds |
/// |---|---|---|
/// | `P/availability` | yes | `online` while `vidrec serve` is connected, `offline` after (its will) |
/// | `P/availability/recording` | yes | `online` while a recording with `--mqtt` runs, `offline` after (its will) |
/// | `P/state` | yes | `idle`, `recording` or `paused` |
/// | `P/camera`, `P/preset` | yes | the camera and the preset of the recording, or those serve offers |
/// | `P/free_space` | yes | free space in the pending area, in GB, one decimal |
/// | `P/last_saved` | yes | the name of the newest file in the album |
/// | `P/motion` | yes | `ON` while an event of a recording that waits for triggers runs, else `OFF` |
/// | `P/snapshot` | yes | the newest photo, as JPEG bytes |
/// | `P/event` | no | what happened, as JSON: `{"event": "started", "id": …, "time": …}` |
/// | `P/command/NAME` | no | read: `start` (JSON `{"quality", "max"}` or nothing), `stop`, `snap`, `trigger`, `pause`, `resume`, `recording` (`ON` or `OFF`) |
/// | `P/result` | no | each command's outcome: `{"command": …, "ok": true}` or with `"error"` |
public struct MQTTTopics: Sendable, Equatable {
    /// The topics' first levels.
    public let prefix: String

    public init(prefix: String) { self.prefix = prefix }

    public var availability: String { prefix + "/availability" }
    /// A recording's own availability, beside serve's.
    public var recordingAvailability: String { prefix + "/availability/recording" }
    public var state: String { prefix + "/state" }
    public var camera: String { prefix + "/camera" }
    public var preset: String { prefix + "/preset" }
    public var freeSpace: String { prefix + "/free_space" }
    public var lastSaved: String { prefix + "/last_saved" }
    public var motion: String { prefix + "/motion" }
    public var snapshot: String { prefix + "/snapshot" }
    public var event: String { prefix + "/event" }
    public var result: String { prefix + "/result" }
    /// The filter of every command's topic.
    public var commands: String { prefix + "/command/+" }
    /// The topic of the command `name`.
    public func command(_ name: String) -> String { prefix + "/command/" + name }
    /// The command a message on `topic` asks for; `nil` for another topic.
    public func commandName(of topic: String) -> String? {
        let start = prefix + "/command/"
        guard topic.hasPrefix(start) else { return nil }
        return String(topic.dropFirst(start.count))
    }

    /// The name Home Assistant knows this camera's entities by: the prefix with each
    /// character other than a letter, a digit, `-` or `_` as `_`.
    public var node: String {
        String(prefix.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
    }
}
