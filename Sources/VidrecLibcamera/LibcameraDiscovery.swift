import CLibcamera
import Glibc
import VidrecMedia

/// The cameras libcamera finds on this machine, with the modes it offers for video
/// that vidrec can read (the formats of ``LibcameraFormat``): what `vidrec devices`
/// lists as `libcamera:<id>`, and what `--camera libcamera:<id>` records.
public struct LibcameraDiscovery: Sendable {
    /// One camera: libcamera's id (stable across boots), its model and its modes.
    public struct Camera: Sendable, Equatable {
        public var id: String
        public var model: String
        public var modes: [CameraMode]
        /// The formats it offers, readable by vidrec or not (DRM fourccs as text).
        public var formats: [String]
        /// The device numbers (`st_rdev`) of the media and V4L2 nodes libcamera drives it
        /// through; empty where libcamera does not say (0.0.3 has no such property).
        public var nodes: [UInt64] = []
        /// `--camera`'s name for it.
        public var selector: String { "libcamera:\(id)" }
    }

    /// The frame rate a mode is listed at when libcamera does not say how fast the
    /// camera can go (vimc, some sensors without frame duration limits).
    public static let assumedFrameRate = Rational(30)

    public init() {}

    /// libcamera's version (`0.0.3`, `0.4.0`).
    public static var version: String { String(cString: vidrec_libcamera_version()) }

    /// Whether this libcamera says which nodes each camera is driven through
    /// (``Camera/nodes``): 0.0.4 and later.
    public static var namesNodes: Bool {
        let parts = version.split(separator: ".").compactMap { Int($0) }
        return parts.count == 3 && (parts[0], parts[1], parts[2]) >= (0, 0, 4)
    }

    /// Whether libcamera's V4L2 compatibility layer (`libcamerify`) holds libcamera in
    /// this process: its cameras are then reached as V4L2 nodes, not as `libcamera:`.
    public static var isHeldByCompatibilityLayer: Bool { vidrec_libcamera_camera_count() == -EBUSY }

    /// Every camera libcamera finds; none when it finds none, cannot start, or is held
    /// by its V4L2 compatibility layer.
    public func cameras() -> [Camera] {
        let count = vidrec_libcamera_camera_count()
        guard count > 0 else { return [] }
        return (0..<count).compactMap { index in
            var id = [CChar](repeating: 0, count: 256), model = [CChar](repeating: 0, count: 256)
            guard vidrec_libcamera_camera_info(index, &id, id.count, &model, model.count) == 0 else { return nil }
            let identifier = String(cBuffer: id)
            let (modes, formats) = Self.modes(of: identifier)
            return Camera(id: identifier, model: String(cBuffer: model), modes: modes, formats: formats,
                          nodes: Self.nodes(of: identifier))
        }
    }

    /// The camera `selector` (`libcamera:<id>`, or `libcamera:<index>` in libcamera's
    /// order, from 0) names.
    ///
    /// - Throws: ``LibcameraError`` when libcamera has no such camera, listing those it has.
    public func camera(_ selector: String) throws -> Camera {
        let id = String(selector.dropFirst("libcamera:".count))
        let all = cameras()
        let byIndex = Int(id).flatMap { all.indices.contains($0) ? all[$0] : nil }
        if all.isEmpty, Self.isHeldByCompatibilityLayer {
            throw LibcameraError("find", camera: id, reason: "libcamera is held by its V4L2 compatibility layer (libcamerify); run vidrec without libcamerify to record libcamera: cameras",
                                 code: EBUSY)
        }
        guard let camera = all.first(where: { $0.id == id }) ?? byIndex else {
            let known = all.isEmpty ? "none" : ": " + all.map(\.selector).joined(separator: ", ")
            throw LibcameraError("find", camera: id, reason: "libcamera has no such camera (it has \(known)); 'vidrec devices' lists the cameras",
                                 code: ENODEV)
        }
        return camera
    }

    /// The controls camera `id` takes; none when libcamera does not have it.
    public func controls(of id: String) -> [LibcameraControl] {
        var listed = [vidrec_libcamera_control](repeating: vidrec_libcamera_control(), count: 128)
        let count = Int(max(0, vidrec_libcamera_camera_controls(id, &listed, Int32(listed.count))))
        return listed.prefix(count).map(LibcameraControl.init).sorted { $0.name < $1.name }
    }

    /// The nodes behind camera `id` (``Camera/nodes``).
    private static func nodes(of id: String) -> [UInt64] {
        var listed = [Int64](repeating: 0, count: 64)
        let count = Int(max(0, vidrec_libcamera_camera_devices(id, &listed, Int32(listed.count))))
        return listed.prefix(count).map { UInt64(bitPattern: $0) }
    }

    /// The V4L2 nodes of every camera libcamera finds, by device number, with the
    /// camera's name (`libcamera:<id>`): what ``CameraDiscovery`` marks as a part of it.
    public static func nodeOwners(_ cameras: [Camera]) -> [UInt64: String] {
        var owners: [UInt64: String] = [:]
        for camera in cameras {
            for node in camera.nodes where owners[node] == nil { owners[node] = camera.selector }
        }
        return owners
    }

    private static func modes(of id: String) -> (modes: [CameraMode], formats: [String]) {
        var listed = [vidrec_libcamera_mode](repeating: vidrec_libcamera_mode(), count: 256)
        let count = Int(max(0, vidrec_libcamera_camera_modes(id, &listed, Int32(listed.count))))
        var modes: [CameraMode] = [], formats: [String] = []
        for mode in listed.prefix(count) {
            let text = LibcameraFormat.text(mode.fourcc)
            if !formats.contains(text) { formats.append(text) }
            guard let format = LibcameraFormat.pixelFormat(drm: mode.fourcc) else { continue }
            let rate = mode.max_frame_rate > 0 ? Rational(approximating: Int128(mode.max_frame_rate * 1000), 1000) : assumedFrameRate
            modes.append(CameraMode(fourcc: format.rawValue, width: Int(mode.width), height: Int(mode.height), frameRate: rate))
        }
        return (modes, formats)
    }
}
