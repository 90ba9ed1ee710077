import VidrecSystem

/// A config file that cannot be used: said as `FILE line N: reason`, never passed over
/// with a default.
struct ConfigProblem: Error, Sendable, Equatable, CustomStringConvertible {
    let path: String
    /// The line, from 1; `nil` for the file as a whole.
    let line: Int?
    let reason: String

    var description: String { path + (line.map { " line \($0)" } ?? "") + ": " + reason }
}

extension ConfigProblem: ExitCoded {
    /// A setting that does not fit: as a wrong command line does.
    var exitCode: ExitCode { .usage }
}
