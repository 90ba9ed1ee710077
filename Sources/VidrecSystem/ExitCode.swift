/// vidrec's exit statuses, from `sysexits.h` where one fits. Each error type says its
/// own (``ExitCoded``); the command line's `ExitCode.meaning` is what the manual page and
/// README.md say of each.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Success: the recording ended at its limit or on request, or the command did its job.
    case success = 0
    /// A failure with no more specific code.
    case failure = 1
    /// EX_USAGE: the command line is wrong.
    case usage = 64
    /// EX_DATAERR: a preset is broken or asks for what this FFmpeg cannot do.
    case dataError = 65
    /// EX_NOINPUT: nothing to act on (no pending recording, unknown ID, nothing running).
    case noInput = 66
    /// EX_UNAVAILABLE: a camera or microphone is missing, busy, or stopped working.
    case unavailable = 69
    /// EX_SOFTWARE: an internal error.
    case software = 70
    /// EX_CANTCREAT: the album or state folder cannot be created or written.
    case cannotCreate = 73
    /// EX_IOERR: writing the recording failed (disk full, I/O error); what was
    /// recorded before the failure is kept.
    case ioError = 74
    /// EX_TEMPFAIL: `vidrec stop` could not confirm the process, or it did not stop in time.
    case temporaryFailure = 75
    /// Recording aborted by a second Ctrl-C; the recording so far is pending as interrupted.
    case aborted = 130
}
