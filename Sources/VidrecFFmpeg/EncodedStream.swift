import CFFmpeg
import VidrecMedia

/// What a muxer needs to know of one encoded stream to add it to its file or stream:
/// the encoder's parameters (codec, size, extradata), the time base its packets are
/// stamped in, and for video the frame rate.
///
/// One ``MovieEncoder`` makes one per stream; every ``PacketOutput`` it feeds builds its
/// own `AVStream` from it, so that a file, its segments and a live stream carry the same
/// packets.
public final class EncodedStream: @unchecked Sendable {
    // Sendable: immutable after init; muxers only read the parameters
    // (`avcodec_parameters_copy` takes a const pointer).

    /// Video or audio.
    public let kind: MediaKind
    /// The encoder's name (`libx264`, `aac`), for messages.
    public let encoderName: String
    /// The time base the packets' timestamps are counted in (the encoder's).
    let timeBase: AVRational
    /// The frame rate, for video; `{0, 1}` for audio.
    let frameRate: AVRational
    /// How far players turn the picture clockwise, in degrees (``VideoEncoding/rotation``).
    var rotation = 0
    private let parameters: OwnedCodecParameters

    init(kind: MediaKind, encoder: UnsafePointer<AVCodecContext>, name: String) throws(FFmpegError) {
        self.kind = kind
        encoderName = name
        timeBase = encoder.pointee.time_base
        frameRate = kind == .video ? encoder.pointee.framerate : AVRational(num: 0, den: 1)
        let frameSize = encoder.pointee.frame_size > 0 ? encoder.pointee.frame_size : 1024
        packetsPerSecond = kind == .audio ? Double(encoder.pointee.sample_rate) / Double(frameSize) : 0
        decoderPreroll = kind == .audio ? Self.preroll(of: encoder, frameSize: frameSize) : 0
        parameters = try OwnedCodecParameters(copying: encoder, subject: name)
    }

    /// One frame (a transform codec's overlap with the frame before), or the codec's
    /// longer pre-roll (Opus asks for 80 ms), in the encoder's time base.
    private static func preroll(of encoder: UnsafePointer<AVCodecContext>, frameSize: Int32) -> Int64 {
        let rate = max(encoder.pointee.sample_rate, 1)
        var samples = max(Int64(frameSize), Int64(encoder.pointee.seek_preroll))
        if encoder.pointee.codec_id == AV_CODEC_ID_OPUS { samples = max(samples, Int64(rate) * 80 / 1000) }
        return av_rescale_q(samples, AVRational(num: 1, den: rate), encoder.pointee.time_base)
    }

    /// Describes a video stream that is not encoded here: a camera's compressed stream,
    /// copied (``VideoStreamCopier``), with `parameters` already filled.
    init(copied parameters: OwnedCodecParameters, timeBase: AVRational, frameRate: AVRational, name: String) {
        kind = .video
        encoderName = name
        self.timeBase = timeBase
        self.frameRate = frameRate
        packetsPerSecond = 0
        decoderPreroll = 0
        self.parameters = parameters
    }

    /// Describes a timed-text stream made here, not by an encoder (``ClockTrack``):
    /// `codec` with `extradata` (its sample description), stamped in milliseconds, with
    /// `cuesPerSecond` packets a second.
    ///
    /// The corresponding C function is `av_mallocz`.
    init(timedText codec: AVCodecID, extradata: [UInt8], cuesPerSecond: Double, name: String) throws(FFmpegError) {
        kind = .subtitle
        encoderName = name
        timeBase = AVRational(num: 1, den: 1000)
        frameRate = AVRational(num: 0, den: 1)
        packetsPerSecond = cuesPerSecond
        decoderPreroll = 0
        parameters = try OwnedCodecParameters(subject: name)
        let codecParameters = parameters.pointer
        codecParameters.pointee.codec_type = AVMEDIA_TYPE_SUBTITLE
        codecParameters.pointee.codec_id = codec
        if !extradata.isEmpty {
            // Freed with the parameters (avcodec_parameters_free), padded as FFmpeg wants.
            let bytes = try allocated(av_mallocz(extradata.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)), "av_mallocz", name)
                .assumingMemoryBound(to: UInt8.self)
            bytes.update(from: extradata, count: extradata.count)
            codecParameters.pointee.extradata = bytes
            codecParameters.pointee.extradata_size = Int32(extradata.count)
        }
    }

    /// Frames a second, for video.
    var framesPerSecond: Double { frameRate.num > 0 && frameRate.den > 0 ? av_q2d(frameRate) : 0 }

    /// Packets a second, for audio: the sample rate over the encoder's frame size.
    let packetsPerSecond: Double

    /// How much sound before a packet a decoder must be given for that packet to come
    /// out whole, in the time base (0 for video): a file cut from an unbroken encoding
    /// starts its sound that much earlier, hidden by its edit list, as ffmpeg does when
    /// it cuts AAC.
    let decoderPreroll: Int64

    /// The codec's identifier.
    var codecID: AVCodecID { parameters.pointer.pointee.codec_id }

    /// Adds this stream to `format`, with a copy of the encoder's parameters (and the
    /// display matrix of a rotation).
    ///
    /// The corresponding C functions are `avformat_new_stream` and
    /// `avcodec_parameters_copy`.
    func addStream(to format: UnsafeMutablePointer<AVFormatContext>, subject: String) throws(FFmpegError) -> UnsafeMutablePointer<AVStream> {
        let stream = try allocated(avformat_new_stream(format, nil), "avformat_new_stream", subject)
        try check(avcodec_parameters_copy(stream.pointee.codecpar, parameters.pointer), "avcodec_parameters_copy", subject)
        stream.pointee.time_base = timeBase
        if kind == .video { stream.pointee.avg_frame_rate = frameRate }
        if kind == .video, rotation != 0 {
            // av_display_rotation_set's angle turns the shown picture clockwise (ffprobe
            // then reports the matrix as a rotation of minus that, as for a phone's
            // portrait video).
            let matrix = try allocated(cffmpeg_stream_new_display_matrix(stream), "adding a display matrix", subject)
            av_display_rotation_set(matrix, Double(rotation))
        }
        return stream
    }
}
