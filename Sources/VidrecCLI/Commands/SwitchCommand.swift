import Foundation
import VidrecCore
import VidrecMedia
import VidrecSystem

/// `vidrec switch [ID] --camera X`: the running recording goes on from another camera,
/// into the same file, as a camera app's front/rear switch does.
struct SwitchCommand: VidrecCommand {
    /// The arguments, each declared once and read back through its key.
    enum Key {
        static let camera = ArgumentKey.option("camera", value: "camera", help: "The camera to record from now: /dev/videoN, an index or part of a name from 'vidrec devices', or 'test'.")
    }

    static let spec = CommandSpec(
        name: "switch",
        abstract: "Make the running recording go on from another camera.",
        discussion: """
        The recording continues into the same file with no gap: between two frames the \
        old camera stops and the new one starts, and until its first frame the old \
        camera's last frame stays on screen. Audio is not touched. The new camera's mode \
        is chosen for the movie's size, as 'vidrec start' chooses one, never stretched by \
        accident. The sidecar lists each camera and from when it was used. Camera \
        controls set with 'start --set' stay with the first camera.
        """,
        arguments: [
            RunningRecording.idArgument.spec,
            Key.camera.spec,
        ])

    /// How long to wait for the recording to make the switch, in seconds.
    static let timeout = 30.0

    var id: String?
    var camera: String

    init(_ arguments: ParsedArguments) throws(ParserError) {
        id = arguments[RunningRecording.idArgument]
        guard let camera = arguments[Key.camera] else { throw .missingArgument("--camera <camera>") }
        self.camera = camera
    }

    func run(_ context: CommandContext) throws -> ExitCode {
        let target = try RunningRecording.find(id, in: context.store(), start: "vidrec start", usage: "vidrec switch ID --camera …")
        let reply: ControlReply
        do {
            reply = try ControlClient.send(ControlRequest(.switch, camera: camera), to: target.controlPath,
                                           timeout: SwitchCommand.timeout)
        } catch {
            throw CLIError("recording \(target.id) (pid \(target.sidecar.pid)) did not answer (\(error)); it records on from \(target.sidecar.camera)", .temporaryFailure)
        }
        if let error = reply.error {
            throw CLIError("recording \(target.id) records on from \(target.sidecar.camera): \(error)",
                           reply.exitCode.flatMap(ExitCode.init(rawValue:)) ?? .failure)
        }
        let mode = reply.mode.map { ", \($0)" } ?? ""
        context.out(String(format: "recording %@ records from %@%@ since %.3f s\n", target.id, reply.camera ?? camera, mode, reply.from ?? 0))
        return .success
    }
}
