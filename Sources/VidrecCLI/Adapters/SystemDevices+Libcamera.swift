import VidrecCore
import VidrecLibcamera
import VidrecMedia
import VidrecV4L2

/// Cameras libcamera drives (`--camera libcamera:<id>`, and `default` where no V4L2
/// node can be recorded): a Raspberry Pi's camera module, a laptop's MIPI camera, vimc.
extension SystemDevices {
    /// Whether `selector` names a libcamera camera.
    static func isLibcamera(_ selector: String) -> Bool { selector.hasPrefix("libcamera:") }

    /// The libcamera camera `--camera` names; `nil` for any other camera.
    func libcameraCamera() throws -> LibcameraDiscovery.Camera? {
        Self.isLibcamera(camera) ? try LibcameraDiscovery().camera(camera) : nil
    }

    /// The first camera libcamera finds, when `--camera` is `default` and no V4L2 node
    /// can be recorded (`failure`, thrown again when libcamera has none either).
    func libcameraFallback(after failure: any Error) throws -> LibcameraDiscovery.Camera {
        guard camera == "default", let first = LibcameraDiscovery().cameras().first(where: { !$0.modes.isEmpty }) else { throw failure }
        tell("camera: \(first.selector) (\(first.model)), through libcamera: no V4L2 node here can be recorded")
        return first
    }

    /// Opens `camera` in the mode the preset asks for, its pictures encoded (a libcamera
    /// camera's stream is not stored as it is).
    func openLibcamera(_ camera: LibcameraDiscovery.Camera, adjusting video: inout VideoEncoding) throws -> OpenedCamera {
        if !controls.isEmpty {
            throw CLIError("\(camera.selector) is a libcamera camera, whose controls vidrec does not set yet (asked: \(controls.entries.map(\.name).joined(separator: ", "))); leave out --set and the control shortcuts", .dataError)
        }
        if video.handling == .copy {
            throw CLIError("\(camera.selector) is a libcamera camera, whose pictures are encoded; leave out --video copy", .usage)
        }
        let choice = try CameraModeSelector().choose(from: camera.modes, width: video.width, height: video.height,
                                                     frameRate: video.frameRate, format: cameraFormat, fit: fit,
                                                     camera: camera.selector, offered: camera.formats, handling: .encode)
        let source = try LibcameraCamera(id: camera.id, name: camera.model, mode: choice.mode)
        Self.fit(&video, to: source, choice: choice, fit: fit)
        tell(choice.summary)
        return OpenedCamera(source: source, path: camera.selector,
                            mode: choice.mode.description + (choice.fit.map { ", \($0.rawValue)" } ?? ""))
    }
}
