/// The result of parsing a command line against a ``CommandSpec``.
public struct ParsedArguments: Sendable, Equatable {
    /// Option values by long name (the last, for a repeatable option).
    public var options: [String: String] = [:]
    /// Every value of each repeatable option, in order.
    public var repeated: [String: [String]] = [:]
    /// Flags given, by long name.
    public var flags: Set<String> = []
    /// Positional values by name.
    public var positionals: [String: String] = [:]
    /// Whether `--help`/`-h` was given.
    public var wantsHelp = false
    /// Everything after `--`, for commands that pass arguments on (`schedule`).
    public var rest: [String] = []

    /// The value of an option, if given.
    public subscript(option name: String) -> String? { options[name] }

    /// Every value given for a repeatable option, in order.
    public subscript(values name: String) -> [String] { repeated[name] ?? [] }

    /// Whether a flag was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }
}
