import CFFmpeg
import VidrecMedia

/// A captured frame's pixels as libswscale reads them: one pointer and one stride per
/// plane, and the pixel format. Raw frames are read where they lie, in the frame's own
/// buffer; compressed frames (Motion JPEG, H.264) are decoded first.
///
/// The pointers are borrowed: valid while the frame, and the decoder for compressed
/// frames (or the decoded picture), are alive and the decoder decodes nothing else.
struct CapturedPicture {
    /// Each plane's first byte (four entries, unused ones `nil`).
    var planes: [UnsafePointer<UInt8>?]
    /// Each plane's bytes per row.
    var strides: [Int32]
    /// The planes' layout.
    var format: AVPixelFormat

    /// Reads `input`; a compressed frame is decoded with `decoder`, which is made on
    /// first use.
    ///
    /// - Returns: `nil` for an H.264 frame that gives no picture (one that follows a
    ///   lost frame, until the next keyframe).
    /// - Throws: ``FFmpegError`` for a corrupt frame (cameras do send those).
    init?(_ input: VideoFrame, decoder: inout FrameDecoder?) throws {
        if input.pixelFormat.isCompressed {
            if decoder?.format != input.pixelFormat { decoder = try FrameDecoder(for: input.pixelFormat) }
            guard try decoder!.decode(input) else { return nil }
            self.init(decoded: decoder!.frame)
            return
        }
        var planes: [UnsafePointer<UInt8>?] = Array(repeating: nil, count: 4)
        var strides: [Int32] = Array(repeating: 0, count: 4)
        var offset = 0
        let base = UnsafePointer<UInt8>(input.buffer.bytes.assumingMemoryBound(to: UInt8.self))
        for (plane, rows) in input.pixelFormat.planeRows(height: input.height).enumerated() {
            planes[plane] = base + offset
            strides[plane] = Int32(input.strides[plane])
            offset += input.strides[plane] * rows
        }
        precondition(offset <= input.byteCount, "video frame shorter than its format")
        if input.pixelFormat == .yv12 { planes.swapAt(1, 2); strides.swapAt(1, 2) }
        self.init(planes: planes, strides: strides, format: input.pixelFormat.avPixelFormat!)
    }

    /// Reads a picture already decoded (by ``DecoderPool``); the pointers are valid while
    /// `decoded` holds its buffers.
    init(decoded: UnsafeMutablePointer<AVFrame>) {
        self.init(planes: (0..<4).map { decoded.plane($0).map { UnsafePointer($0) } },
                  strides: (0..<4).map { decoded.linesize($0) },
                  format: AVPixelFormat(rawValue: decoded.pointee.format))
    }

    private init(planes: [UnsafePointer<UInt8>?], strides: [Int32], format: AVPixelFormat) {
        self.planes = planes
        self.strides = strides
        self.format = format
    }
}
