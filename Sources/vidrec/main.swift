// vidrec: record video from a camera and microphone. See README.md.
import Foundation
import Glibc
import VidrecCLI
import VidrecCore

let context = CommandContext(
    paths: VidrecPaths(),
    executable: CommandLine.arguments.first.flatMap { _ in Bundle.main.executablePath } ?? CommandLine.arguments[0],
    out: { text in FileHandle.standardOutput.write(Data(text.utf8)) },
    err: { text in FileHandle.standardError.write(Data(text.utf8)) },
    errIsTerminal: isatty(STDERR_FILENO) == 1)
exit(VidrecCLI.run(Array(CommandLine.arguments.dropFirst()), context: context))
