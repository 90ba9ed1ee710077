/// One of a command's arguments, declared once and read back through the same value:
/// an option or a positional reads as `String?`, a flag as `Bool`, a repeatable option
/// as `[String]` (``ParsedArguments/subscript(_:)-(ArgumentKey<String?>)``). A command
/// lists its keys' ``spec``s in its ``CommandSpec``, so that it can read only what it
/// declares, with the kind it declares: a misspelt name or a flag read as an option does
/// not compile, where a string key would silently read `nil`.
public struct ArgumentKey<Value>: Sendable {
    /// How the argument is declared: its name, kind and help.
    public let spec: ArgumentSpec

    private init(_ spec: ArgumentSpec) {
        self.spec = spec
    }
}

extension ArgumentKey where Value == String? {
    /// An option that takes a value (``ArgumentSpec/option(_:value:short:help:)``).
    public static func option(_ name: String, value: String, short: Character? = nil, help: String) -> ArgumentKey {
        ArgumentKey(.option(name, value: value, short: short, help: help))
    }

    /// A positional argument (``ArgumentSpec/positional(_:optional:help:)``).
    public static func positional(_ name: String, optional: Bool, help: String) -> ArgumentKey {
        ArgumentKey(.positional(name, optional: optional, help: help))
    }
}

extension ArgumentKey where Value == Bool {
    /// A flag (``ArgumentSpec/flag(_:short:help:)``).
    public static func flag(_ name: String, short: Character? = nil, help: String) -> ArgumentKey {
        ArgumentKey(.flag(name, short: short, help: help))
    }
}

extension ArgumentKey where Value == [String] {
    /// An option that may be given more than once (``ArgumentSpec/repeatable(_:value:help:)``).
    public static func repeatable(_ name: String, value: String, help: String) -> ArgumentKey {
        ArgumentKey(.repeatable(name, value: value, help: help))
    }
}
