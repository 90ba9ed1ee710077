import CFFmpeg
import VidrecMedia

/// A movie's poster frame, or a photo's thumbnail, as a JPEG (`.thumbnails/NAME.jpg` in the album): the picture
/// about a second in (past a camera's first, often dark, frames), scaled to the width
/// asked for, keeping the aspect ratio, encoded with libavcodec's MJPEG encoder.
public struct PosterFrame: PosterFrameMaking {
    /// How far into the movie the picture is taken, in seconds.
    public static let offset = 1.0

    /// Creates a poster-frame maker.
    public init() {}

    /// Decodes from the keyframe before ``offset`` up to the first picture at or after it
    /// (or the last one of a shorter movie), scales it, and encodes it as a JPEG.
    /// The corresponding C functions are `av_seek_frame`, `avcodec_send_packet`,
    /// `avcodec_receive_frame`, `sws_scale` and `avcodec_send_frame` (`mjpeg`).
    ///
    /// - Throws: ``FFmpegError`` when the movie has no video or cannot be decoded.
    public func posterFrame(of movie: String, width: Int) throws -> [UInt8]? {
        let jpeg = "the poster frame of \(movie)"
        let demuxer = try InputFormatContext(path: movie)
        let input = demuxer.pointer
        var decoderCodec: UnsafePointer<AVCodec>?
        let index = av_find_best_stream(input, AVMEDIA_TYPE_VIDEO, -1, -1, &decoderCodec, 0)
        if index == cffmpeg_averror_stream_not_found() { return nil }
        try check(index, "av_find_best_stream", "\(movie): a video stream")
        guard let codec = decoderCodec, let stream = input.pointee.streams[Int(index)] else {
            throw FFmpegError("avcodec_find_decoder", movie, code: cffmpeg_averror(ENOSYS))
        }
        let decoder = try CodecContext(codec: codec, subject: movie)
        try check(avcodec_parameters_to_context(decoder.pointer, stream.pointee.codecpar), "avcodec_parameters_to_context", movie)
        try check(avcodec_open2(decoder.pointer, codec, nil), "avcodec_open2", movie)
        let target = av_rescale_q(Int64(PosterFrame.offset * Double(AV_TIME_BASE)), cffmpeg_time_base_q(), stream.pointee.time_base)
        // A movie shorter than the offset (and a photo) is read from the beginning, to
        // its last picture.
        if input.pointee.duration != cffmpeg_nopts_value(), input.pointee.duration > Int64(PosterFrame.offset * Double(AV_TIME_BASE)) {
            _ = av_seek_frame(input, index, target, AVSEEK_FLAG_BACKWARD)
        }

        let picked = try Self.picture(from: input, stream: index, decoder: decoder, until: target, movie: movie)
        return try JPEGEncoder.encode(picked.pointer, width: width, turnedClockwise: Self.clockwiseTurn(of: stream), subject: jpeg)
    }

    /// Decodes `input`'s stream `index` from where it stands up to the first picture at
    /// or after `target` (in the stream's time base), or its last picture.
    private static func picture(from input: UnsafeMutablePointer<AVFormatContext>, stream index: Int32, decoder: CodecContext,
                                until target: Int64, movie: String) throws -> OwnedFrame {
        let packetOwner = try OwnedPacket(subject: movie)
        let frameOwner = try OwnedFrame(subject: movie)
        let picked = try OwnedFrame(subject: movie)
        var havePicture = false
        var draining = false
        decoding: while true {
            let packet = packetOwner.pointer
            if !draining {
                let read = av_read_frame(input, packet)
                if read == cffmpeg_averror_eof() {
                    draining = true
                    try check(avcodec_send_packet(decoder.pointer, nil), "avcodec_send_packet", movie)
                } else {
                    try check(read, "av_read_frame", movie)
                    defer { av_packet_unref(packet) }
                    guard packet.pointee.stream_index == index else { continue }
                    let sent = avcodec_send_packet(decoder.pointer, packet)
                    if sent < 0 && sent != cffmpeg_averror_eagain() { try check(sent, "avcodec_send_packet", movie) }
                }
            }
            while true {
                let received = avcodec_receive_frame(decoder.pointer, frameOwner.pointer)
                if received == cffmpeg_averror_eof() { break decoding }
                if received == cffmpeg_averror_eagain() { break }
                try check(received, "avcodec_receive_frame", movie)
                av_frame_unref(picked.pointer)
                av_frame_move_ref(picked.pointer, frameOwner.pointer)
                havePicture = true
                if picked.pointer.pointee.best_effort_timestamp >= target { break decoding }
            }
        }
        guard havePicture else {
            throw FFmpegError("avcodec_receive_frame", "\(movie): no picture decoded", code: cffmpeg_averror_eof())
        }
        return picked
    }

    /// How far players turn `stream`'s pictures clockwise, in degrees: a display matrix
    /// (vidrec's --rotate, a phone's portrait movie) turns them by a multiple of 90.
    private static func clockwiseTurn(of stream: UnsafeMutablePointer<AVStream>) -> Int {
        guard let matrix = cffmpeg_stream_display_matrix(stream) else { return 0 }
        let counterClockwise = av_display_rotation_get(matrix)
        return counterClockwise.isFinite ? ((-Int(counterClockwise.rounded()) % 360) + 360) % 360 : 0
    }
}
