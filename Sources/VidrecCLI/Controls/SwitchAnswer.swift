import Foundation
import VidrecCore

/// `switch` (`vidrec switch --camera`): the recording goes on from another camera, in
/// the same file (``Recorder/switchCamera(to:)``).
enum SwitchAnswer {
    static let answer = ControlAnswer(name: .switch) { request, recording in
        guard let name = request.camera else { return ControlAnswer.unknown(request.command) }
        let devices = SystemDevices(camera: name, cameraFormat: nil, fit: recording.fit, microphone: "none") { recording.warn("vidrec: \($0)\n") }
        let use = try recording.recorder.switchCamera(to: devices)
        recording.camera = use.camera
        recording.warn(String(format: "vidrec: switched to %@ at %.3f s\n", use.camera, use.from))
        return ControlReply(camera: use.camera, mode: use.mode, from: use.from)
    }
}
