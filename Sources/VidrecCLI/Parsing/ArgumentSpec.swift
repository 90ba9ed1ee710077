/// One thing a command accepts on its command line.
public struct ArgumentSpec: Sendable {
    /// What kind of argument.
    public enum Kind: Sendable, Equatable {
        /// `--name <value>` or `--name=value`.
        case option(valueName: String)
        /// `--name`, no value.
        case flag
        /// A bare word in order; `optional` ones may be left out.
        case positional(optional: Bool)
    }

    /// The long name without dashes (`quality`), or the positional's name (`id`).
    public var name: String
    /// Its kind.
    public var kind: Kind
    /// One line for `--help`.
    public var help: String
    /// A single-letter alias (`q`), if any.
    public var short: Character?
    /// Whether an option may be given more than once (`--set a=1 --set b=2`).
    public var isRepeatable = false

    /// An option that takes a value.
    public static func option(_ name: String, value: String, short: Character? = nil, help: String) -> ArgumentSpec {
        ArgumentSpec(name: name, kind: .option(valueName: value), help: help, short: short)
    }

    /// An option that takes a value and may be given more than once.
    public static func repeatable(_ name: String, value: String, help: String) -> ArgumentSpec {
        ArgumentSpec(name: name, kind: .option(valueName: value), help: help, short: nil, isRepeatable: true)
    }

    /// A flag.
    public static func flag(_ name: String, short: Character? = nil, help: String) -> ArgumentSpec {
        ArgumentSpec(name: name, kind: .flag, help: help, short: short)
    }

    /// A positional argument.
    public static func positional(_ name: String, optional: Bool, help: String) -> ArgumentSpec {
        ArgumentSpec(name: name, kind: .positional(optional: optional), help: help, short: nil)
    }

    /// How the argument reads in usage and messages: `--max <duration>`, `--save`, `<id>`.
    public var synopsis: String {
        switch kind {
        case .option(let value): "--\(name) <\(value)>"
        case .flag: "--\(name)"
        case .positional: "<\(name)>"
        }
    }
}
