import Foundation

/// Where `vidrec start` says what happens: the terminal (standard error, unless
/// `--quiet`), the `--log` file, and the live status line.
///
/// With `--quiet`, only failures reach stderr (cron mails what a job prints); the log
/// gets everything but the status line. Standard output carries only the saved path;
/// the log says it too.
struct StartLog {
    /// The context the recording prints through: its `err` and `out` go to the terminal
    /// (unless quiet) and to the log.
    let context: CommandContext
    /// Where failures go: stderr even with `--quiet`, and the log.
    let failure: @Sendable (String) -> Void
    /// Where the live status line goes: the terminal only, never the log; `nil` when
    /// quiet or when stderr is not a terminal.
    let terminal: (@Sendable (String) -> Void)?
    private let file: LogFile?

    /// The log for `context`, with the log file at `path` (opened for appending; `~`
    /// expanded) when one is given.
    ///
    /// - Throws: ``CLIError`` when the log file cannot be opened.
    init(_ context: CommandContext, path: String?, quiet: Bool) throws {
        let file = try path.map { try LogFile(path: ($0 as NSString).expandingTildeInPath) }
        var logged = context
        logged.err = { text in
            if !quiet { context.err(text) }
            file?.write(text)
        }
        logged.out = { text in
            if !quiet { context.out(text) }
            file?.write("vidrec: saved to \(text)")
        }
        self.context = logged
        failure = { text in
            context.err(text)
            file?.write(text)
        }
        terminal = quiet || !context.errIsTerminal ? nil : context.err
        self.file = file
    }

    /// Logs the error that ends `vidrec start` (the command's caller prints it).
    func error(_ message: String) {
        file?.write("Error: \(message)")
    }
}
