import VidrecMedia

/// What `vidrec devices` shows of a camera.
public struct CameraDescription: Sendable, Equatable {
    /// `/dev/videoN`.
    public var path: String
    /// The card name (`vivid`, `HD Pro Webcam C920`).
    public var name: String
    /// The driver (`uvcvideo`, `vivid`).
    public var driver: String
    /// The bus (`usb-0000:00:14.0-1`, `platform:vivid-000`).
    public var bus: String
    /// The modes offered: every one, or those of the formats vidrec reads, as the
    /// discovery's ``ModeListing`` asked.
    public var modes: [CameraMode]
    /// Every pixel format offered (FOURCC names), also those whose modes were not listed.
    public var formats: [String]
    /// Controls (brightness, focus, exposure, …) with their ranges and values.
    public var controls: [CameraControl]
    /// The stable names udev gives the node (`/dev/v4l/by-id/usb-…-video-index0`, then
    /// `/dev/v4l/by-path/…`): they name the same camera after a replug or a reboot,
    /// whatever number its node gets.
    public var links: [String] = []
    /// The libcamera camera (`libcamera:<id>`) this node is a part of, where libcamera
    /// says so (0.4 and later): one of the nodes of a media-controller pipeline that
    /// libcamera runs, not a camera of its own.
    public var libcameraCamera: String?
}

extension CameraDescription {
    /// Bayer FOURCCs, as a Raspberry Pi's CSI receiver or a laptop's IPU6 nodes send:
    /// sensor data that an image signal processor (libcamera) must turn into pictures.
    /// 8 to 16 bits, unpacked and MIPI-packed, and the IPU3's own packing.
    static let bayerPrefixes = ["BA81", "GBRG", "GRBG", "RGGB", "BG10", "GB10", "BA10", "RG10", "BG12", "GB12", "BA12",
                                "RG12", "BG14", "GB14", "GR14", "RG14", "BYR2", "GB16", "GR16", "RG16",
                                "pBAA", "pGAA", "pgAA", "pRAA", "pBCC", "pGCC", "pgCC", "pRCC", "pBEE", "pGEE", "pgEE", "pREE",
                                "ip3b", "ip3g", "ip3G", "ip3r"]

    /// Why vidrec cannot record from this camera, or `nil` when it can: it sends no
    /// pixel format vidrec reads (`raw Bayer (RGGB): needs libcamera`).
    public var unusableReason: String? {
        guard !modes.contains(where: { $0.pixelFormat != nil }) else { return nil }
        let offered = formats.isEmpty ? "no pixel format" : formats.joined(separator: ", ")
        if !formats.isEmpty, formats.allSatisfy({ CameraDescription.bayerPrefixes.contains($0) }) {
            if let libcameraCamera { return "raw Bayer (\(offered)): part of \(libcameraCamera): record it with --camera \(libcameraCamera)" }
            return "raw Bayer (\(offered)): needs libcamera: record it with --camera libcamera:<id> ('vidrec devices' lists libcamera's cameras)"
        }
        return "sends \(offered), none of which vidrec reads"
    }
}
