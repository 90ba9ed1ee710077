/// The result of parsing a command line against a ``CommandSpec``.
public struct ParsedArguments: Sendable, Equatable {
    /// Option values by long name.
    public var options: [String: String] = [:]
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

    /// Whether a flag was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }
}
