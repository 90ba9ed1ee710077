// vidrec: record video from a camera and microphone. See README.md.
import Foundation
import Glibc
import VidrecCLI
import VidrecCore
import VidrecMedia
import VidrecSystem

// A closed standard output or error (`vidrec start | head -1`, a cron job whose mail
// pipe went away) is EPIPE on a write, never the end of a recording.
signal(SIGPIPE, SIG_IGN)
let output: @Sendable (Int32) -> @Sendable (String) -> Void = { fd in
    { text in
        guard !text.isEmpty else { return }
        try? Array(text.utf8).withUnsafeBytes { try FileDescriptor(rawValue: fd).writeAll($0.baseAddress!, count: $0.count, "output") }
    }
}
// The running binary's own path, for the crontab lines `vidrec schedule` writes. (Not
// `Bundle.main`, whose set-up lists the binary's folder: milliseconds at every start.)
let context = CommandContext(
    paths: VidrecPaths(),
    executable: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0],
    out: output(STDOUT_FILENO), err: output(STDERR_FILENO), errIsTerminal: isatty(STDERR_FILENO) == 1)
// The arguments are copied above; the secrets in them leave the process's own argv,
// which every local user can read in /proc.
let arguments = Array(CommandLine.arguments.dropFirst())
CommandLineSecrets.hide(in: arguments)
exit(VidrecCLI.run(arguments, context: context))
