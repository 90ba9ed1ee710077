import VidrecMedia
import VidrecSystem

/// A subcommand: its spec, how it reads its parsed arguments, and what it does.
protocol VidrecCommand {
    /// Name, help text and accepted arguments.
    static var spec: CommandSpec { get }

    /// Validates values (ranges, formats) from the parsed command line.
    init(_ arguments: ParsedArguments) throws(ParserError)

    /// Does the work. Runtime failures are thrown and mapped to an exit code by
    /// ``RuntimeFailure``.
    func run(_ context: CommandContext) throws -> ExitCode
}
