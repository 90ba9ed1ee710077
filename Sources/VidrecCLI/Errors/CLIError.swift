import VidrecMedia
import VidrecSystem

/// A runtime failure raised by a command itself, with its message and exit code.
struct CLIError: Error, CustomStringConvertible {
    let message: String
    let code: ExitCode

    init(_ message: String, _ code: ExitCode) {
        self.message = message
        self.code = code
    }

    var description: String { message }
}

extension CLIError: ExitCoded {
    var exitCode: ExitCode { code }
}
