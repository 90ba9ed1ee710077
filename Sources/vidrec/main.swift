// vidrec: record video from a camera and microphone. See README.md.
import Foundation
import Glibc
import VidrecCLI
import VidrecCore

// The running binary's own path, for the crontab lines `vidrec schedule` writes. (Not
// `Bundle.main`, whose set-up lists the binary's folder: milliseconds at every start.)
let context = CommandContext(
    paths: VidrecPaths(),
    executable: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0],
    out: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
    err: { text in FileHandle.standardError.write(Data(text.utf8)) },
    errIsTerminal: isatty(STDERR_FILENO) == 1)
exit(VidrecCLI.run(Array(CommandLine.arguments.dropFirst()), context: context))
