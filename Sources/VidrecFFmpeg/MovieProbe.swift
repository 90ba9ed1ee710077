import CFFmpeg
import VidrecMedia

/// Reads a movie's streams by demuxing every packet (no decoding), which also works on
/// a fragmented file cut short by a crash; or describes it from its header alone.
public struct MovieProbe: MovieDescribing {
    /// Creates a probe.
    public init() {}

    /// Inspects `path`.
    ///
    /// - Throws: ``FFmpegError`` when the file cannot be opened as a movie.
    public func inspect(_ path: String) throws -> MovieInfo {
        let demuxer = try InputFormatContext(path: path)
        defer { withExtendedLifetime(demuxer) {} }
        let input: UnsafeMutablePointer<AVFormatContext>? = demuxer.pointer
        var streams: [MovieInfo.Stream] = (0..<Int(input!.pointee.nb_streams)).map { index in
            let parameters = input!.pointee.streams[index]!.pointee.codecpar.pointee
            let kind = av_get_media_type_string(parameters.codec_type).map { String(cString: $0) } ?? "unknown"
            return MovieInfo.Stream(kind: kind, codec: String(cString: avcodec_get_name(parameters.codec_id)),
                                    packets: 0, duration: 0, playsThrough: 0)
        }
        var spans = [PlayedSpan](repeating: PlayedSpan(), count: streams.count)
        let packetOwner = try OwnedPacket(subject: path)
        defer { withExtendedLifetime(packetOwner) {} }
        let packet: UnsafeMutablePointer<AVPacket>? = packetOwner.pointer
        while av_read_frame(input, packet) >= 0 {
            defer { av_packet_unref(packet) }
            let index = Int(packet!.pointee.stream_index)
            guard index < streams.count, packet!.pointee.pts != cffmpeg_nopts_value() else { continue }
            streams[index].packets += 1
            let decode = packet!.pointee.dts
            spans[index].add(presentation: packet!.pointee.pts, decode: decode == cffmpeg_nopts_value() ? nil : decode,
                             duration: packet!.pointee.duration)
        }
        for index in streams.indices {
            let base = input!.pointee.streams[index]!.pointee.time_base
            streams[index].duration = max(0, spans[index].latestEnd.map { Double($0) * av_q2d(base) } ?? 0)
            streams[index].playsThrough = spans[index].end.map { Double($0) * av_q2d(base) } ?? 0
        }
        return MovieInfo(streams: streams)
    }

    /// Describes `path` from its header: duration, picture size and rate, codecs, tags.
    /// The corresponding C functions are `avformat_open_input`,
    /// `avformat_find_stream_info` and `av_dict_get`.
    ///
    /// - Throws: ``FFmpegError`` when the file cannot be opened as a movie or picture.
    public func describe(_ path: String) throws -> MovieDescription {
        let demuxer = try InputFormatContext(path: path)
        defer { withExtendedLifetime(demuxer) {} }
        let input = demuxer.pointer
        var description = MovieDescription(duration: 0, width: nil, height: nil, frameRate: nil, codecs: [], tags: [:])
        if input.pointee.duration > 0 { description.duration = Double(input.pointee.duration) / Double(AV_TIME_BASE) }
        var video: [String] = [], other: [String] = []
        for index in 0..<Int(input.pointee.nb_streams) {
            guard let stream = input.pointee.streams[index] else { continue }
            let parameters = stream.pointee.codecpar.pointee
            let codec = String(cString: avcodec_get_name(parameters.codec_id))
            if parameters.codec_type == AVMEDIA_TYPE_VIDEO, description.width == nil {
                video.append(codec)
                description.width = Int(parameters.width)
                description.height = Int(parameters.height)
                let rate = stream.pointee.avg_frame_rate
                if rate.num > 0, rate.den > 0, parameters.codec_id != AV_CODEC_ID_MJPEG { description.frameRate = av_q2d(rate) }
            } else {
                other.append(codec)
            }
        }
        description.codecs = video + other
        // Ogg keeps a file's tags on its stream (Vorbis comments): a sound file's are its own.
        var tags = input.pointee.metadata
        if av_dict_count(tags) == 0, input.pointee.nb_streams == 1, let stream = input.pointee.streams[0] {
            tags = stream.pointee.metadata
        }
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while let next = av_dict_get(tags, "", entry, AV_DICT_IGNORE_SUFFIX) {
            description.tags[String(cString: next.pointee.key)] = String(cString: next.pointee.value)
            entry = next
        }
        return description
    }
}
