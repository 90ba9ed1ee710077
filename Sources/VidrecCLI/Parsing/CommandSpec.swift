/// A command's name, description and arguments.
public struct CommandSpec: Sendable {
    /// The subcommand (`start`).
    public var name: String
    /// One line for the command list.
    public var abstract: String
    /// Paragraphs shown by `--help` after the abstract.
    public var discussion: String
    /// What it accepts (`--help` is implicit).
    public var arguments: [ArgumentSpec]
    /// Whether everything after `--` is kept as ``ParsedArguments/rest`` (for
    /// `schedule`, which passes options on to `start`).
    public var passesRest = false
    /// Other names the command answers to (`album` for `list`).
    public var aliases: [String] = []

    /// The name and the aliases: every word the command answers to.
    public var names: [String] { [name] + aliases }

    /// Creates a spec.
    public init(name: String, aliases: [String] = [], abstract: String, discussion: String, arguments: [ArgumentSpec],
                passesRest: Bool = false) {
        self.name = name
        self.aliases = aliases
        self.abstract = abstract
        self.discussion = discussion
        self.arguments = arguments
        self.passesRest = passesRest
    }
}
