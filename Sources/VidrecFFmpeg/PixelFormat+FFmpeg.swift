import CFFmpeg
import VidrecMedia

extension PixelFormat {
    /// The matching `AVPixelFormat` for raw formats (`nil` for compressed formats, which are decoded).
    /// YV12 maps to yuv420p with the chroma planes swapped when the frame is wrapped.
    var avPixelFormat: AVPixelFormat? {
        switch self {
        case .yuyv: AV_PIX_FMT_YUYV422
        case .uyvy: AV_PIX_FMT_UYVY422
        case .nv12: AV_PIX_FMT_NV12
        case .yu12, .yv12: AV_PIX_FMT_YUV420P
        case .rgb24: AV_PIX_FMT_RGB24
        case .bgr24: AV_PIX_FMT_BGR24
        case .mjpeg, .jpeg, .h264: nil
        }
    }
}
