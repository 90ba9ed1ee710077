import Foundation
import VidrecCore
import VidrecFFmpeg
import VidrecMedia
import VidrecMP4
import VidrecSystem

/// `vidrec recover [ID]`: turn interrupted recordings back into finished ones.
struct RecoverCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let id = ArgumentKey.positional("id", optional: true, help: "The recording to recover (default: every interrupted one).")
    }

    static let spec = CommandSpec(
        name: "recover",
        abstract: "Finalize recordings interrupted by a crash, a kill or a power cut.",
        discussion: "Rewrites everything up to the last complete fragment as an ordinary movie, which then stays pending. 'vidrec save' does this by itself.",
        arguments: [Key.id.spec])

    var id: String?

    init(_ arguments: ParsedArguments) throws(ParserError) {
        id = arguments[Key.id]
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let store = try context.store()
        let targets = try id.map { [try store.entry(id: $0)] } ?? store.list().filter { $0.state == .interrupted }
        guard !targets.isEmpty else {
            throw CLIError("nothing to recover: no recording was interrupted", .noInput)
        }
        for entry in targets {
            if entry.state == .recording { throw StoreError.stillRecording(entry.id, pid: entry.sidecar.pid) }
            let duration = try store.finalize(entry, with: MovieFinalizer())
            var sidecar = entry.sidecar
            if sidecar.state == .recording { sidecar.state = .finished }
            if let duration {
                sidecar.duration = duration
                sidecar.endReason = sidecar.endReason ?? "interrupted; recovered"
            }
            try store.write(sidecar)
            context.out(String(format: "recovered %@: %.3f s\n", entry.id, sidecar.duration ?? 0))
        }
        return .success
    }
}
