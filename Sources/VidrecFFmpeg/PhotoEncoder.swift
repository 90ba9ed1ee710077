import CFFmpeg
import VidrecMedia

/// Still photos from camera frames: any ``PixelFormat`` the camera sends (MJPEG
/// decoded), encoded as a JPEG with libavcodec's MJPEG encoder at its finest quantizer.
public final class PhotoEncoder: PhotoEncoding {
    private var decoder: MJPEGDecoder?

    /// Creates an encoder; the MJPEG decoder is opened on the first MJPEG frame.
    public init() {}

    /// Encodes `frame` as a JPEG, `width` pixels wide (keeping the aspect ratio, never
    /// larger than the frame), or at the frame's own size.
    /// The corresponding C functions are `sws_scale` and `avcodec_send_frame` (`mjpeg`).
    ///
    /// - Throws: ``FFmpegError`` for a corrupt MJPEG frame or an encoder failure.
    public func jpeg(of frame: VideoFrame, width: Int?) throws -> EncodedPhoto {
        let subject = "a \(frame.width)x\(frame.height) photo"
        let picture = try CapturedPicture(frame, decoder: &decoder)
        let wrapper = try OwnedFrame(subject: subject)
        let view = wrapper.pointer
        view.pointee.width = Int32(frame.width)
        view.pointee.height = Int32(frame.height)
        view.pointee.format = picture.format.rawValue
        view.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        // Borrowed planes, no buffer references: freeing the wrapper frees nothing of them.
        withUnsafeMutableBytes(of: &view.pointee.data) { data in
            for plane in 0..<4 {
                data.storeBytes(of: picture.planes[plane].map { UnsafeMutablePointer(mutating: $0) }, toByteOffset: plane * 8,
                                as: UnsafeMutablePointer<UInt8>?.self)
            }
        }
        withUnsafeMutableBytes(of: &view.pointee.linesize) { sizes in
            for plane in 0..<4 { sizes.storeBytes(of: picture.strides[plane], toByteOffset: plane * 4, as: Int32.self) }
        }
        defer {
            _ = withUnsafeMutableBytes(of: &view.pointee.data) { $0.initializeMemory(as: UInt8.self, repeating: 0) }
        }
        let size = JPEGEncoder.outputSize(of: view, width: width ?? frame.width)
        let bytes = try JPEGEncoder.encode(view, width: width ?? frame.width, quantizer: 2, subject: subject)
        return EncodedPhoto(bytes: bytes, width: Int(size.width), height: Int(size.height))
    }
}
