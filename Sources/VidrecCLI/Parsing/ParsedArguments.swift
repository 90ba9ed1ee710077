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

    /// The value of an option or a positional argument, if given.
    public subscript(_ key: ArgumentKey<String?>) -> String? {
        if case .positional = key.spec.kind { return positionals[key.spec.name] }
        return options[key.spec.name]
    }

    /// Every value given for a repeatable option, in order.
    public subscript(_ key: ArgumentKey<[String]>) -> [String] { repeated[key.spec.name] ?? [] }

    /// Whether a flag was given.
    public subscript(_ key: ArgumentKey<Bool>) -> Bool { flags.contains(key.spec.name) }

    /// Whether the argument `spec` declares was given at all: a flag, an option with a
    /// value, or a positional.
    public func gave(_ spec: ArgumentSpec) -> Bool {
        flags.contains(spec.name) || options[spec.name] != nil || repeated[spec.name]?.isEmpty == false
            || positionals[spec.name] != nil
    }
}
