import CFFmpeg
import VidrecMedia

/// The FFmpeg movie file output: encodes video and audio and muxes them into a file
/// that stays playable while it is being written.
///
/// MP4 and MOV are written as fragmented MP4 (a fragment every quarter second), every
/// fragment flushed to the kernel as soon as it is complete and synced to disk about
/// once a second. After ``finish()`` the fragmented file is complete and playable;
/// ``MovieFinalizer`` then rewrites it as an ordinary indexed movie.
public final class MovieFileOutput: CaptureOutput {
    /// The file being written.
    public let path: String

    public var outputName: String { "movie file \(path)" }

    // Owners, each freeing its own C object, so that a throw part-way through the
    // initializer frees what was made so far. The muxer is declared first: its streams
    // are referenced by the encoders, and its I/O context belongs to `io`.
    private let muxer: OutputFormatContext
    private let io: FileOutputIO
    private let video: VideoStreamEncoder
    private let audio: AudioStreamEncoder?
    private let packetOwner: OwnedPacket
    private var format: UnsafeMutablePointer<AVFormatContext> { muxer.pointer }
    private var packet: UnsafeMutablePointer<AVPacket> { packetOwner.pointer }
    private var lastSync: Int64 = MonotonicClock.now()
    private var headerWritten = false
    private var finished = false

    /// Creates `path` (which must not exist) and writes the movie header.
    ///
    /// - Parameters:
    ///   - path: the file to create.
    ///   - settings: codecs, sizes and rates, from the quality preset.
    /// - Throws: ``FFmpegError`` or ``SystemError``, naming the encoder, option or file.
    public init(path: String, settings: MovieSettings) throws {
        self.path = path
        let muxerName = settings.container.muxerName
        muxer = try OutputFormatContext(muxer: muxerName, path: path)
        let format = muxer.pointer
        packetOwner = try OwnedPacket(subject: path)
        video = try VideoStreamEncoder(format: format, settings: settings.video)
        audio = try settings.audio.map { try AudioStreamEncoder(format: format, settings: $0) }
        try MovieFileOutput.checkCodecs(format, muxer: muxerName, settings: settings)
        io = try FileOutputIO(creating: path)
        format.pointee.pb = io.context
        format.pointee.flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_FLUSH_PACKETS
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        for (key, value) in settings.container.recordingOptions {
            av_dict_set(&options, key, value, 0)
        }
        try check(avformat_write_header(format, &options), "avformat_write_header", path)
        headerWritten = true
        try io.flush(durable: true)
    }

    private static func checkCodecs(_ format: UnsafeMutablePointer<AVFormatContext>, muxer: String,
                                    settings: MovieSettings) throws(FFmpegError) {
        for index in 0..<Int(format.pointee.nb_streams) {
            let codecID = format.pointee.streams[index]!.pointee.codecpar.pointee.codec_id
            if avformat_query_codec(format.pointee.oformat, codecID, FF_COMPLIANCE_NORMAL) != 1 {
                let codec = String(cString: avcodec_get_name(codecID))
                throw FFmpegError("avformat_query_codec", "\(codec) in \(settings.container)", code: cffmpeg_averror(EINVAL),
                                  hint: "the container '\(settings.container)' cannot hold \(codec); pick another codec or container in the preset", kind: .unsupportedSettings)
            }
        }
    }

    /// Bytes in the file so far.
    public var bytesWritten: Int64 { io.size }

    /// Camera frames skipped because they could not be decoded (corrupt MJPEG).
    public var undecodableFrames: Int { video.undecodableFrames }

    public func appendVideo(_ frame: VideoFrame, frameIndex: Int64) throws {
        guard let prepared = try video.prepare(frame, frameIndex: frameIndex) else { return }
        try encode(video, prepared)
    }

    public func appendAudio(_ chunk: AudioChunk) throws {
        guard let audio else { return }
        try audio.append(chunk) { try encode(audio, $0) }
    }

    public func finish() throws {
        guard !finished else { return }
        finished = true
        try encode(video, nil)
        if let audio {
            try audio.drain { try encode(audio, $0) }
            try encode(audio, nil)
        }
        try check(av_write_trailer(format), "av_write_trailer", path)
        try io.flush(durable: true)
    }

    /// Sends one frame (or `nil` to flush) and writes every packet the encoder returns,
    /// rescaled from the codec time base to the stream time base.
    private func encode(_ encoder: StreamEncoder, _ frame: UnsafeMutablePointer<AVFrame>?) throws {
        try check(avcodec_send_frame(encoder.codecContext, frame), "avcodec_send_frame", encoder.name)
        while true {
            let received = avcodec_receive_packet(encoder.codecContext, packet)
            if received == cffmpeg_averror_eagain() || received == cffmpeg_averror_eof() { break }
            try check(received, "avcodec_receive_packet", encoder.name)
            packet.pointee.stream_index = encoder.stream.pointee.index
            if packet.pointee.duration == 0 { packet.pointee.duration = encoder.defaultPacketDuration }
            av_packet_rescale_ts(packet, encoder.codecContext.pointee.time_base, encoder.stream.pointee.time_base)
            let written = av_interleaved_write_frame(format, packet)
            if written < 0, let writeError = io.writeError { throw writeError }
            try check(written, "av_interleaved_write_frame", path)
        }
        if let writeError = io.writeError { throw writeError }
        let now = MonotonicClock.now()
        if now - lastSync >= CaptureTiming.syncInterval.nanoseconds {
            lastSync = now
            try io.flush(durable: true)
        }
    }

    deinit {
        if headerWritten && !finished {
            // An error path: close the file as it is. Fragments written so far play.
            av_write_trailer(format)
        }
    }
}
