/// An error that says which exit status it ends vidrec with: every error type a command
/// can meet conforms, next to its definition (a test lists them), so that a new error
/// type or case cannot fall through to a status nobody chose.
public protocol ExitCoded: Error {
    /// The status vidrec exits with when this error ends a command.
    var exitCode: ExitCode { get }
}
