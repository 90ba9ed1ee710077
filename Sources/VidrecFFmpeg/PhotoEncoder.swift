import CFFmpeg
import VidrecMedia

/// Still photos from camera frames: any ``PixelFormat`` the camera sends (compressed
/// frames decoded), encoded as a JPEG with libavcodec's MJPEG encoder at its finest
/// quantizer.
///
/// An H.264 picture can only be decoded from the keyframe before it: the encoder keeps
/// the access units since the last keyframe (``observe(_:)``; references, no copies)
/// and decodes them when a photo is asked for, so that a recording that copies the
/// camera's stream decodes nothing until then.
public final class PhotoEncoder: PhotoEncoding {
    private var decoder: FrameDecoder?
    /// H.264 access units from the last keyframe on, or `nil` when one since was lost.
    private var pictureGroup: [VideoFrame]? = []

    /// The most H.264 access units kept: ten seconds at 30 fps.
    static let pictureGroupLimit = 300

    /// How far each photo is turned clockwise, in degrees: 0, 90, 180 or 270.
    public let turnedClockwise: Int
    /// Whether each photo is flipped left to right (before it is turned).
    public let isMirrored: Bool
    /// The JPEG quantizer, 2 (finest) to 31.
    public let quantizer: Int32
    /// The encoder and scaler, kept from one photo to the next.
    private let reuse = JPEGEncoder.Reuse()

    /// The quantizer of a still photo: the finest.
    public static let photoQuantizer: Int32 = 2
    /// The quantizer of a viewfinder's pictures: at 640 pixels wide, about two thirds of
    /// a photo's bytes and time to encode, with no blocks to see.
    public static let viewfinderQuantizer: Int32 = 5

    /// Creates an encoder; a decoder is opened on the first compressed frame.
    ///
    /// - Parameters:
    ///   - turnedClockwise: turns each photo clockwise by 0, 90, 180 or 270 degrees.
    ///   - mirrored: flips each photo left to right before it is turned; with
    ///     `turnedClockwise`, a photo looks as a player shows a movie recorded with
    ///     `--mirror` and `--rotate`.
    ///   - quantizer: the JPEG quantizer (``photoQuantizer`` or ``viewfinderQuantizer``).
    public init(turnedClockwise: Int = 0, mirrored: Bool = false, quantizer: Int32 = photoQuantizer) {
        precondition([0, 90, 180, 270].contains(turnedClockwise) && (2...31).contains(quantizer))
        self.quantizer = quantizer
        self.turnedClockwise = turnedClockwise
        isMirrored = mirrored
    }

    public func observe(_ frame: VideoFrame) {
        guard frame.pixelFormat == .h264 else { return }
        if frame.isKeyframe {
            pictureGroup = [frame]
        } else if var group = pictureGroup, let last = group.last, frame.sequence == last.sequence + 1,
                  group.count < Self.pictureGroupLimit {
            group.append(frame)
            pictureGroup = group
        } else {
            pictureGroup = nil
        }
    }

    /// Encodes `frame` as a JPEG, `width` pixels wide (keeping the aspect ratio, never
    /// larger than the frame), or at the frame's own size.
    /// The corresponding C functions are `sws_scale` and `avcodec_send_frame` (`mjpeg`).
    ///
    /// - Throws: ``FFmpegError`` for a corrupt MJPEG frame or an encoder failure.
    public func jpeg(of frame: VideoFrame, width: Int?) throws -> EncodedPhoto {
        let subject = "a \(frame.width)x\(frame.height) photo"
        let decoded: CapturedPicture?
        if frame.pixelFormat == .h264 {
            guard let group = pictureGroup, group.last?.buffer === frame.buffer else {
                throw FFmpegError("decode H.264", subject, code: cffmpeg_averror(EAGAIN),
                                  hint: "a frame since the camera's last keyframe was lost; try again after its next keyframe")
            }
            decoder = try FrameDecoder(for: .h264)
            var picture: CapturedPicture?
            for unit in group { picture = try CapturedPicture(unit, decoder: &decoder) }
            decoded = picture
        } else {
            decoded = try CapturedPicture(frame, decoder: &decoder)
        }
        guard let picture = decoded else {
            throw FFmpegError("decode \(frame.pixelFormat.rawValue)", subject, code: cffmpeg_averror(EAGAIN),
                              hint: "the camera's frame gave no picture; try again")
        }
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
        let bytes = try JPEGEncoder.encode(view, width: width ?? frame.width, turnedClockwise: turnedClockwise, mirrored: isMirrored,
                                           quantizer: quantizer, reuse: reuse, subject: subject)
        let turned = turnedClockwise == 90 || turnedClockwise == 270
        return EncodedPhoto(bytes: bytes, width: Int(turned ? size.height : size.width), height: Int(turned ? size.width : size.height))
    }
}
