import CFFmpeg
import VidrecMedia

/// Reads a movie's streams by demuxing every packet (no decoding), which also works on
/// a fragmented file cut short by a crash.
public struct MovieProbe: Sendable {
    /// Creates a probe.
    public init() {}

    /// Inspects `path`.
    ///
    /// - Throws: ``FFmpegError`` when the file cannot be opened as a movie.
    public func inspect(_ path: String) throws -> MovieInfo {
        let demuxer = try InputFormatContext(path: path)
        defer { withExtendedLifetime(demuxer) {} }
        let input: UnsafeMutablePointer<AVFormatContext>? = demuxer.pointer
        try check(avformat_find_stream_info(input, nil), "avformat_find_stream_info", path)
        var streams: [MovieInfo.Stream] = (0..<Int(input!.pointee.nb_streams)).map { index in
            let parameters = input!.pointee.streams[index]!.pointee.codecpar.pointee
            let kind = av_get_media_type_string(parameters.codec_type).map { String(cString: $0) } ?? "unknown"
            return MovieInfo.Stream(kind: kind, codec: String(cString: avcodec_get_name(parameters.codec_id)),
                                    packets: 0, duration: 0)
        }
        let packetOwner = try OwnedPacket(subject: path)
        defer { withExtendedLifetime(packetOwner) {} }
        let packet: UnsafeMutablePointer<AVPacket>? = packetOwner.pointer
        while av_read_frame(input, packet) >= 0 {
            defer { av_packet_unref(packet) }
            let index = Int(packet!.pointee.stream_index)
            guard index < streams.count, packet!.pointee.pts != cffmpeg_nopts_value() else { continue }
            let base = input!.pointee.streams[index]!.pointee.time_base
            streams[index].packets += 1
            let end = Double(packet!.pointee.pts + packet!.pointee.duration) * av_q2d(base)
            streams[index].duration = max(streams[index].duration, end)
        }
        return MovieInfo(streams: streams)
    }
}
