import CFFmpeg
import VidrecMedia

/// Still pictures as JPEG, with libavcodec's MJPEG encoder: poster frames and the
/// album's contact sheet.
enum JPEGEncoder {
    /// What encoding one JPEG after another keeps (a viewfinder's, five a second): the
    /// opened encoder, for one size and quantizer, and the scaler.
    final class Reuse {
        fileprivate var encoder: (context: CodecContext, width: Int32, height: Int32, quantizer: Int32)?
        fileprivate let scaler = Scaler()
        /// The next picture's timestamp: an encoder kept open takes rising ones.
        fileprivate var nextTimestamp: Int64 = 0

        init() {}
    }

    /// Scales `picture` to `width` (even, keeping the aspect ratio and the pixels'
    /// shape; never larger) in full-range YUV 4:2:0 and encodes it as a JPEG.
    ///
    /// - Parameters:
    ///   - degrees: turns the scaled picture clockwise by 90, 180 or 270 degrees.
    ///   - mirrored: flips the scaled picture left to right first (as `--mirror` does
    ///     before a player turns the picture by `--rotate`).
    ///   - quantizer: the JPEG quantizer, 2 (finest) to 31; 3 is small and good enough
    ///     for thumbnails.
    ///   - reuse: keeps the encoder and the scaler for the next picture; `nil`: both are
    ///     made for this one alone.
    static func encode(_ picture: UnsafeMutablePointer<AVFrame>, width: Int, turnedClockwise degrees: Int = 0,
                       mirrored: Bool = false, quantizer: Int32 = 3, reuse: Reuse? = nil, subject jpeg: String) throws -> [UInt8] {
        let source = picture.pointee
        let (outputWidth, outputHeight) = outputSize(of: picture, width: width)

        let turned = degrees == 90 || degrees == 270
        let (encodedWidth, encodedHeight) = turned ? (outputHeight, outputWidth) : (outputWidth, outputHeight)
        let encoder: CodecContext
        if let kept = reuse?.encoder, kept.width == encodedWidth, kept.height == encodedHeight, kept.quantizer == quantizer {
            encoder = kept.context
        } else {
            encoder = try openEncoder(width: encodedWidth, height: encodedHeight, quantizer: quantizer, subject: jpeg)
            reuse?.encoder = (encoder, encodedWidth, encodedHeight, quantizer)
        }
        let context = encoder.pointer

        let scaled = try OwnedFrame(subject: jpeg)
        let frame = scaled.pointer
        frame.pointee.width = outputWidth
        frame.pointee.height = outputHeight
        frame.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        frame.pointee.quality = context.pointee.global_quality
        frame.pointee.pts = reuse?.nextTimestamp ?? 0
        reuse?.nextTimestamp += 1
        try check(av_frame_get_buffer(frame, 0), "av_frame_get_buffer", jpeg)
        let scaler = reuse?.scaler ?? Scaler()
        let sws = try scaler.context(from: source.width, source.height, AVPixelFormat(source.format),
                                     to: outputWidth, outputHeight, AV_PIX_FMT_YUVJ420P, subject: jpeg)
        try withUnsafePointer(to: picture.pointee.data) { sourceData in
            try withUnsafePointer(to: picture.pointee.linesize) { sourceStrides in
                try withUnsafeMutablePointer(to: &frame.pointee.data) { outputData in
                    try withUnsafeMutablePointer(to: &frame.pointee.linesize) { outputStrides in
                        let rows = sws_scale(sws,
                                             UnsafeRawPointer(sourceData).assumingMemoryBound(to: UnsafePointer<UInt8>?.self), UnsafeRawPointer(sourceStrides).assumingMemoryBound(to: Int32.self),
                                             0, source.height,
                                             UnsafeMutableRawPointer(outputData).assumingMemoryBound(to: UnsafeMutablePointer<UInt8>?.self), UnsafeMutableRawPointer(outputStrides).assumingMemoryBound(to: Int32.self))
                        try check(rows, "sws_scale", jpeg)
                    }
                }
            }
        }
        if mirrored { mirror(scaled) }
        let upright = try degrees == 0 ? scaled : turn(scaled, clockwise: degrees, subject: jpeg)
        let packetOwner = try OwnedPacket(subject: jpeg)
        try check(avcodec_send_frame(context, upright.pointer), "avcodec_send_frame", jpeg)
        try check(avcodec_receive_packet(context, packetOwner.pointer), "avcodec_receive_packet", jpeg)
        return Array(UnsafeBufferPointer(start: packetOwner.pointer.pointee.data, count: Int(packetOwner.pointer.pointee.size)))
    }

    /// An MJPEG encoder for `width`x`height` full-range 4:2:0 pictures at `quantizer`.
    private static func openEncoder(width: Int32, height: Int32, quantizer: Int32, subject jpeg: String) throws -> CodecContext {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw FFmpegError("avcodec_find_encoder", "mjpeg", code: cffmpeg_averror(ENOSYS), hint: "this FFmpeg has no JPEG encoder")
        }
        let encoder = try CodecContext(codec: codec, subject: jpeg)
        let context = encoder.pointer
        context.pointee.width = width
        context.pointee.height = height
        context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        context.pointee.time_base = AVRational(num: 1, den: 1)
        context.pointee.flags |= AV_CODEC_FLAG_QSCALE
        context.pointee.global_quality = quantizer * FF_QP2LAMBDA
        try check(avcodec_open2(context, codec, nil), "avcodec_open2", "mjpeg for \(jpeg)")
        return encoder
    }

    /// The size ``encode(_:width:turnedClockwise:mirrored:quantizer:reuse:subject:)`` scales `picture`
    /// to for `width`, before any turn: even, the aspect ratio and the pixels' shape kept,
    /// never larger than the picture.
    static func outputSize(of picture: UnsafeMutablePointer<AVFrame>, width: Int) -> (width: Int32, height: Int32) {
        let source = picture.pointee
        var aspect = source.sample_aspect_ratio
        if aspect.num <= 0 || aspect.den <= 0 { aspect = AVRational(num: 1, den: 1) }
        let shownWidth = Double(source.width) * av_q2d(aspect)
        let outputWidth = Int32(max(16, min(width, Int(shownWidth))) & ~1)
        return (outputWidth, Int32(max(2, Int((Double(outputWidth) * Double(source.height) / shownWidth).rounded())) & ~1))
    }

    /// Flips the YUV 4:2:0 picture `frame` left to right, in place, row by row.
    private static func mirror(_ frame: OwnedFrame) {
        let picture = frame.pointer
        let width = Int(picture.pointee.width), height = Int(picture.pointee.height)
        let planes: [(width: Int, height: Int)] = [(width, height), (width / 2, height / 2), (width / 2, height / 2)]
        for (plane, size) in planes.enumerated() {
            PlaneMirror.flip(picture.plane(plane)!, stride: Int(picture.linesize(plane)), width: size.width, rows: size.height)
        }
    }

    /// A copy of the YUV 4:2:0 picture `source` turned clockwise by 90, 180 or 270 degrees,
    /// plane by plane.
    private static func turn(_ source: OwnedFrame, clockwise degrees: Int, subject: String) throws -> OwnedFrame {
        let input = source.pointer
        let width = Int(input.pointee.width), height = Int(input.pointee.height)
        let turned = try OwnedFrame(subject: subject)
        let output = turned.pointer
        output.pointee.format = input.pointee.format
        output.pointee.width = Int32(degrees == 180 ? width : height)
        output.pointee.height = Int32(degrees == 180 ? height : width)
        output.pointee.quality = input.pointee.quality
        output.pointee.pts = input.pointee.pts
        try check(av_frame_get_buffer(output, 0), "av_frame_get_buffer", subject)
        let planes: [(width: Int, height: Int)] = [(width, height), (width / 2, height / 2), (width / 2, height / 2)]
        for (plane, size) in planes.enumerated() {
            // yuvj420p: all three planes are there.
            let from = input.plane(plane)!, to = output.plane(plane)!
            let fromStride = Int(input.linesize(plane)), toStride = Int(output.linesize(plane))
            for y in 0..<size.height {
                for x in 0..<size.width {
                    let (row, column) = switch degrees {
                    case 90: (x, size.height - 1 - y)
                    case 180: (size.height - 1 - y, size.width - 1 - x)
                    default: (size.width - 1 - x, y)
                    }
                    to[row * toStride + column] = from[y * fromStride + x]
                }
            }
        }
        return turned
    }
}
