extension PixelFormat {
    /// Rows in each plane of a frame `height` rows tall, in memory order.
    public func planeRows(height: Int) -> [Int] {
        let chroma = (height + 1) / 2
        switch self {
        case .yuyv, .uyvy, .rgb24, .bgr24, .mjpeg: return [height]
        case .nv12: return [height, chroma]
        case .yu12, .yv12: return [height, chroma, chroma]
        }
    }
}
