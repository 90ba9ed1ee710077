import VidrecCore
import VidrecLibcamera
import VidrecMedia
import VidrecSystem
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

    /// The libcamera camera that `default`'s V4L2 node is a part of (a node of a
    /// media-controller pipeline that libcamera runs, as a Raspberry Pi's ISP nodes are),
    /// to be recorded through libcamera instead; `nil` for a camera of its own, or when
    /// `--camera` named the node.
    func libcameraOwner(of description: CameraDescription) -> LibcameraDiscovery.Camera? {
        guard camera == "default", LibcameraDiscovery.namesNodes, description.bus.hasPrefix("platform:"),
              description.driver != "uvcvideo", let node = (try? FileSystem.status(description.path))??.st_rdev else { return nil }
        let cameras = LibcameraDiscovery().cameras()
        guard let owner = cameras.first(where: { $0.nodes.contains(UInt64(node)) && !$0.modes.isEmpty }) else { return nil }
        tell("camera: \(owner.selector) (\(owner.model)), through libcamera: \(description.path) is a part of it")
        return owner
    }

    /// `--set`'s controls for `camera`, by `--set`'s names for libcamera's controls
    /// (``LibcameraControl/key``) or libcamera's own; the shortcuts (`--focus`, …) set
    /// V4L2 controls and are refused.
    ///
    /// - Throws: ``CameraControlError`` for a control it does not take or a value out of range.
    func libcameraControls(of camera: LibcameraDiscovery.Camera) throws -> [(control: LibcameraControl, value: Double)] {
        guard !controls.isEmpty else { return [] }
        let available = LibcameraDiscovery().controls(of: camera.id)
        return try controls.entries.map { entry in
            guard case .set(let name, let text) = entry else {
                throw CLIError("--\(entry.name.replacingOccurrences(of: " ", with: "-")) sets a V4L2 control, and \(camera.selector) is a libcamera camera: set its controls with --set ('vidrec controls --camera \(camera.selector)' lists them)", .dataError)
            }
            guard let control = available.first(where: { $0.key == name.lowercased() || $0.name.lowercased() == name.lowercased() }) else {
                throw CameraControlError.unknown(name, camera: camera.selector, available: available.map(\.key))
            }
            guard let value = control.value(text) else { throw CameraControlError.badValue(text, control: control.key, range: control.range) }
            return (control, value)
        }
    }

    /// Opens `camera` in the mode the preset asks for, its pictures encoded (a libcamera
    /// camera's stream is not stored as it is).
    func openLibcamera(_ camera: LibcameraDiscovery.Camera, adjusting video: inout VideoEncoding) throws -> OpenedCamera {
        let settings = try libcameraControls(of: camera)
        if video.handling == .copy {
            throw CLIError("\(camera.selector) is a libcamera camera, whose pictures are encoded; leave out --video copy", .usage)
        }
        let choice = try CameraModeSelector().choose(from: camera.modes, width: video.width, height: video.height,
                                                     frameRate: video.frameRate, format: cameraFormat, fit: fit,
                                                     camera: camera.selector, offered: camera.formats, handling: .encode)
        let source = try LibcameraCamera(id: camera.id, name: camera.model, mode: choice.mode,
                                         controls: settings.map { ($0.control.name, $0.value) }, keepControls: keepControls)
        Self.fit(&video, to: source, choice: choice, fit: fit)
        tell(choice.summary)
        if !settings.isEmpty {
            let done = settings.map { "\($0.control.key)=\(LibcameraControl.text($0.value))" }.joined(separator: ", ")
            tell("camera controls: \(done)" + (keepControls ? "; kept afterwards (--keep-controls)" : "; set back to libcamera's defaults at the end"))
        }
        return OpenedCamera(source: source, path: camera.selector,
                            mode: choice.mode.description + (choice.fit.map { ", \($0.rawValue)" } ?? ""))
    }
}
