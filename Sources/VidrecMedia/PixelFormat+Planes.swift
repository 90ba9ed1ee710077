extension PixelFormat {
    /// Rows in each plane of a frame `height` rows tall, in memory order.
    public func planeRows(height: Int) -> [Int] {
        let chroma = (height + 1) / 2
        switch self {
        case .yuyv, .uyvy, .rgb24, .bgr24, .mjpeg, .jpeg, .h264: return [height]
        case .nv12: return [height, chroma]
        case .yu12, .yv12: return [height, chroma, chroma]
        }
    }
}

extension PixelFormat {
    /// Bytes in one frame of `width`×`height`; for compressed formats, which vary, a
    /// generous guess (a fifth of the raw 4:2:2 size for JPEG, a tenth for H.264), for
    /// sizing queues.
    public func frameByteCount(width: Int, height: Int) -> Int {
        let chroma = ((width + 1) / 2) * ((height + 1) / 2)
        switch self {
        case .yuyv, .uyvy: return width * 2 * height
        case .nv12, .yu12, .yv12: return width * height + 2 * chroma
        case .rgb24, .bgr24: return width * 3 * height
        case .mjpeg, .jpeg: return width * 2 * height / 5
        case .h264: return width * 2 * height / 10
        }
    }
}
