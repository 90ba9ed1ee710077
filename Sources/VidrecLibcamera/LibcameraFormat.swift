import VidrecMedia

/// libcamera's pixel formats (DRM fourccs) as vidrec's: the ones a recording can read.
/// libcamera names packed RGB by its DRM word (`RGB888` is blue, green, red in memory:
/// V4L2's `BGR3`).
public enum LibcameraFormat {
    /// vidrec's format for a DRM fourcc; `nil` for one vidrec cannot read (raw Bayer).
    public static func pixelFormat(drm fourcc: UInt32) -> PixelFormat? {
        switch text(fourcc) {
        case "YUYV": .yuyv
        case "UYVY": .uyvy
        case "NV12": .nv12
        case "YU12": .yu12
        case "YV12": .yv12
        case "RG24": .bgr24
        case "BG24": .rgb24
        case "MJPG": .mjpeg
        default: nil
        }
    }

    /// The DRM fourcc for vidrec's format; `nil` where libcamera has none.
    public static func drm(_ format: PixelFormat) -> UInt32? {
        let text: String? = switch format {
        case .yuyv: "YUYV"
        case .uyvy: "UYVY"
        case .nv12: "NV12"
        case .yu12: "YU12"
        case .yv12: "YV12"
        case .bgr24: "RG24"
        case .rgb24: "BG24"
        case .mjpeg: "MJPG"
        default: nil
        }
        return text.map { $0.utf8.reversed().reduce(0) { $0 << 8 | UInt32($1) } }
    }

    /// A fourcc's four characters.
    public static func text(_ fourcc: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8(truncatingIfNeeded: fourcc >> (8 * $0)) }, as: UTF8.self)
    }

    /// Bytes per row of each plane after the first, and each plane's rows, for a
    /// picture whose first plane has `stride` bytes a row.
    static func planes(_ format: PixelFormat, stride: Int, height: Int) -> [(stride: Int, rows: Int)] {
        switch format {
        case .nv12: [(stride, height), (stride, height / 2)]
        case .yu12, .yv12: [(stride, height), (stride / 2, height / 2), (stride / 2, height / 2)]
        default: [(stride, height)]
        }
    }
}
