/// The layouts of video frames that sources deliver and the movie output accepts.
///
/// The names follow V4L2's FOURCCs; ``VidrecFFmpeg`` maps each to an `AVPixelFormat`
/// (and MJPEG to a decoder).
public enum PixelFormat: String, Sendable, CaseIterable {
    /// Packed 4:2:2, Y0 U Y1 V (`YUYV`), the most common webcam format.
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
    /// Motion JPEG: each frame is one compressed JPEG image (`MJPG`).
    case mjpeg = "MJPG"

    /// Whether frames are compressed and must be decoded before scaling.
    public var isCompressed: Bool { self == .mjpeg }
}
