import CV4L2
import Foundation
import VidrecMedia
import VidrecSystem

/// Finds cameras: the `/dev/video*` nodes that capture video, in numeric order.
public struct CameraDiscovery: Sendable {
    /// The folder to look in (tests may point elsewhere).
    public let deviceDirectory: String
    /// Which modes each description lists.
    public let listing: ModeListing
    /// The nodes libcamera drives, by device number, with their camera's name
    /// (``CameraDescription/libcameraCamera``).
    public let libcameraNodes: [UInt64: String]

    /// Creates a discovery over `/dev`, listing every mode or (`.readable`, for
    /// recording) only those vidrec can read, and marking the nodes in
    /// `libcameraNodes` as parts of their libcamera camera.
    public init(deviceDirectory: String = "/dev", listing: ModeListing = .all, libcameraNodes: [UInt64: String] = [:]) {
        self.deviceDirectory = deviceDirectory
        self.listing = listing
        self.libcameraNodes = libcameraNodes
    }

    /// The capture nodes, with their modes and controls. Nodes that cannot capture video
    /// (metadata, output, radio) are skipped; nodes that cannot be opened are skipped too
    /// (``resolve(_:)`` reports why for a node asked for by path).
    public func cameras() -> [CameraDescription] {
        candidatePaths().compactMap { try? describe($0) }
    }

    /// `/dev/video0`, `/dev/video1`, … sorted by number.
    func candidatePaths() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: deviceDirectory)) ?? []
        return names.filter { $0.hasPrefix("video") && Int($0.dropFirst(5)) != nil }
            .sorted { Int($0.dropFirst(5))! < Int($1.dropFirst(5))! }
            .map { deviceDirectory + "/" + $0 }
    }

    /// Opens `path` and describes it.
    ///
    /// - Throws: ``DeviceError`` when it is missing, not a camera, denied or busy.
    public func describe(_ path: String) throws -> CameraDescription {
        let device = try V4L2Device(path: path)
        let capability: v4l2_capability
        do { capability = try device.capabilities() } catch {
            throw DeviceError.notACamera(path: path, reason: "it does not answer VIDIOC_QUERYCAP (\((error as? SystemError)?.reason ?? "\(error)"))")
        }
        guard V4L2Device.capturesVideo(capability) else {
            throw DeviceError.notACamera(path: path, reason: "it cannot capture video (a metadata or output node)")
        }
        let (modes, formats) = try device.modes(listing)
        // libcamera's UVC pipeline wraps a webcam's one node, which vidrec records as it
        // is: only the nodes of a media-controller pipeline are parts of a camera.
        let driver = String(cTuple: capability.driver)
        let node = libcameraNodes.isEmpty || driver == "uvcvideo" ? nil : (try? FileSystem.status(path))??.st_rdev
        return CameraDescription(
            path: path, name: String(cTuple: capability.card), driver: driver,
            bus: String(cTuple: capability.bus_info), modes: modes, formats: formats, controls: device.controls(),
            links: links(to: path), libcameraCamera: node.flatMap { libcameraNodes[UInt64($0)] })
    }

    /// The links in `<deviceDirectory>/v4l/by-id` and `…/by-path` that lead to `path`'s
    /// node, by-id first, each folder in name order.
    func links(to path: String) -> [String] {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return ["by-id", "by-path"].flatMap { folder -> [String] in
            let directory = deviceDirectory + "/v4l/" + folder
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return names.sorted().map { directory + "/" + $0 }.filter {
                URL(fileURLWithPath: $0).resolvingSymlinksInPath().path == target
            }
        }
    }

    /// Resolves `--camera`: `default` (the first camera), a path, an index from
    /// `vidrec devices`, or part of a camera's name or bus.
    public func resolve(_ selector: String) throws -> CameraDescription {
        if selector.hasPrefix("/") { return try describe(selector) }
        let all = cameras()
        let listing = all.enumerated().map { "\($0.offset): \($0.element.path) (\($0.element.name))" }
        if selector == "default" { return try CameraDiscovery.defaultCamera(among: all) }
        if let index = Int(selector) {
            guard all.indices.contains(index) else { throw DeviceError.noSuchCameraIndex(index, available: listing) }
            return all[index]
        }
        let needle = selector.lowercased()
        let matches = all.filter { $0.name.lowercased().contains(needle) || $0.bus.lowercased().contains(needle) }
        guard !matches.isEmpty else { throw DeviceError.noMatchingCamera(selector, available: listing) }
        guard matches.count == 1 else { throw DeviceError.ambiguousCamera(selector, matches: matches.map(\.path)) }
        return matches[0]
    }

    /// The camera `default` names: the first that vidrec can record from. A laptop's or a
    /// Raspberry Pi's first node is often one that cannot be (raw Bayer, an ISP's
    /// internal node), so those are passed over.
    ///
    /// - Throws: ``DeviceError/noCamera`` when there is none; ``DeviceError/noUsableCamera(_:)``
    ///   naming each node and why, when none can be recorded.
    public static func defaultCamera(among cameras: [CameraDescription]) throws -> CameraDescription {
        guard !cameras.isEmpty else { throw DeviceError.noCamera }
        if let usable = cameras.first(where: { $0.unusableReason == nil }) { return usable }
        throw DeviceError.noUsableCamera(cameras.map { "\($0.path) (\($0.name)): \($0.unusableReason ?? "")" })
    }
}
