/// The layouts of video frames that sources deliver and the movie output accepts.
///
/// The names follow V4L2's FOURCCs; ``VidrecFFmpeg`` maps each raw one to an
/// `AVPixelFormat`, and each compressed one to a decoder (or copies it as it is).
public enum PixelFormat: String, Sendable, CaseIterable {
    /// Packed 4:2:2, Y0 U Y1 V (`YUYV`), the most common raw webcam format.
    case yuyv = "YUYV"
    /// Packed 4:2:2, U Y0 V Y1 (`UYVY`).
    case uyvy = "UYVY"
    /// Planar Y, then interleaved UV at 4:2:0 (`NV12`).
    case nv12 = "NV12"
    /// Planar Y, U, V at 4:2:0 (`YU12`, FFmpeg's yuv420p).
    case yu12 = "YU12"
    /// Planar Y, V, U at 4:2:0 (`YV12`).
    case yv12 = "YV12"
    /// Packed 8-bit R G B (`RGB3`).
    case rgb24 = "RGB3"
    /// Packed 8-bit B G R (`BGR3`).
    case bgr24 = "BGR3"
    /// Motion JPEG: each frame is one compressed JPEG image (`MJPG`), what USB webcams
    /// send at HD sizes.
    case mjpeg = "MJPG"
    /// JPEG images, as some drivers call Motion JPEG (`JPEG`: the Raspberry Pi's legacy
    /// camera driver, some UVC cameras); read as ``mjpeg``.
    case jpeg = "JPEG"
    /// H.264 access units in Annex B byte-stream form (`H264`), as H.264 webcams and the
    /// Raspberry Pi's legacy camera driver send: stored as they are, or decoded.
    case h264 = "H264"

    /// Whether frames are compressed and must be decoded before scaling.
    public var isCompressed: Bool { isJPEG || self == .h264 }

    /// Whether each frame is a JPEG image (``mjpeg`` or ``jpeg``).
    public var isJPEG: Bool { self == .mjpeg || self == .jpeg }

    /// The codec a compressed format is (`mjpeg`, `h264`: FFmpeg's names), `nil` for raw.
    public var codecName: String? {
        switch self {
        case .mjpeg, .jpeg: "mjpeg"
        case .h264: "h264"
        default: nil
        }
    }
}
