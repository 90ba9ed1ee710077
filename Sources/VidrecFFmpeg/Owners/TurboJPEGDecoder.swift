import CFFmpeg
import CTurboJPEG
import VidrecMedia

/// libjpeg-turbo's decoder (the TurboJPEG API), for the JPEGs webcams send: YCbCr at
/// 4:2:2 or 4:2:0, decoded straight into the planes of an `AVFrame` (`yuvj422p`,
/// `yuvj420p`). It is faster than libavcodec's `mjpeg` decoder on the same frames
/// (measured: docs/PERFORMANCE.md, `scripts/benchmark-webcam`), and, like it, decodes frames
/// without Huffman tables with the standard ones (UVC cameras leave them out).
///
/// Owns its handle. The corresponding C functions are `tjInitDecompress` and `tjDestroy`.
final class TurboJPEGDecoder {
    private var handle: tjhandle

    /// Makes a decompressor.
    ///
    /// - Throws: ``FFmpegError`` when libjpeg-turbo cannot make one (out of memory).
    init() throws(FFmpegError) {
        guard let handle = tjInitDecompress() else {
            throw FFmpegError("tjInitDecompress", "JPEG", code: cffmpeg_averror(ENOMEM))
        }
        self.handle = handle
    }

    deinit { tjDestroy(handle) }

    /// Decodes `image`, a JPEG, into `frame`, whose buffers are remade when the JPEG's
    /// size or layout changes (and when the encoder still holds the last picture).
    ///
    /// - Returns: `false` for a JPEG in another layout (4:4:4, greyscale, RGB), left
    ///   for libavcodec; `frame` is then untouched.
    /// - Throws: ``FFmpegError`` for a JPEG that does not decode (a warning, such as a
    ///   frame cut short, still gives its picture).
    func decode(_ image: VideoFrame, into frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) -> Bool {
        let subject = "\(image.pixelFormat.rawValue) frame \(image.sequence)"
        let bytes = UnsafePointer(image.buffer.bytes.assumingMemoryBound(to: UInt8.self))
        let size = UInt(image.byteCount)
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        guard tjDecompressHeader3(handle, bytes, size, &width, &height, &subsampling, &colorspace) == 0 else {
            throw failure("tjDecompressHeader3", subject)
        }
        let layout: AVPixelFormat
        switch UInt32(subsampling) {
        case TJSAMP_422.rawValue: layout = AV_PIX_FMT_YUVJ422P
        case TJSAMP_420.rawValue: layout = AV_PIX_FMT_YUVJ420P
        default: return false
        }
        guard UInt32(colorspace) == TJCS_YCbCr.rawValue else { return false }
        if frame.pointee.format != layout.rawValue || frame.pointee.width != width || frame.pointee.height != height {
            av_frame_unref(frame)
            frame.pointee.format = layout.rawValue
            frame.pointee.width = width
            frame.pointee.height = height
            try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer", subject)
        } else {
            try check(av_frame_make_writable(frame), "av_frame_make_writable", subject)
        }
        frame.pointee.color_range = AVCOL_RANGE_JPEG
        var planes = (0..<3).map { frame.plane($0) }
        var strides = (0..<3).map { frame.linesize($0) }
        if tjDecompressToYUVPlanes(handle, bytes, size, &planes, width, &strides, height, 0) != 0,
           tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) {
            throw failure("tjDecompressToYUVPlanes", subject)
        }
        return true
    }

    /// The decompressor's last error as an ``FFmpegError`` (EINVAL, with its text).
    ///
    /// The handle is then made anew: libjpeg-turbo 2.1 does not reset a decompressor whose
    /// header read failed, and it fails every later JPEG (after a JPEG cut short in its
    /// quantisation table, a whole one reads "Bogus DQT index 15"), so one corrupt frame
    /// from a camera would end all decoding.
    private func failure(_ operation: String, _ subject: String) -> FFmpegError {
        let error = FFmpegError(operation, subject, code: cffmpeg_averror(EINVAL),
                                hint: "libjpeg-turbo: " + (tjGetErrorStr2(handle).map { String(cString: $0) } ?? "no message"))
        if let fresh = tjInitDecompress() {
            tjDestroy(handle)
            handle = fresh
        }
        return error
    }
}
