import CFFmpeg
import VidrecMedia

/// Where a crashed recording's streams are cut so that they end together.
///
/// Video is kept as a prefix in decode order (so every kept frame decodes), the longest
/// whose frames all end no later than half a frame after the shorter stream's end;
/// audio is kept up to where that video ends. The two then end within one video frame
/// (or one audio packet) of each other.
struct CommonEnd {
    /// The video stream's index.
    var videoStream: Int
    /// Video packets to keep, in decode order.
    var videoPackets: Int
    /// Other streams keep packets that start before this time (in `AV_TIME_BASE` units).
    var end: Int64

    /// Reads every packet's timing from `source`; `nil` when there is nothing to trim
    /// (one stream only, or no video).
    static func scan(_ source: String) throws -> CommonEnd? {
        let demuxer = try InputFormatContext(path: source)
        defer { withExtendedLifetime(demuxer) {} }
        let input: UnsafeMutablePointer<AVFormatContext>? = demuxer.pointer
        try check(avformat_find_stream_info(input, nil), "avformat_find_stream_info", source)
        let count = Int(input!.pointee.nb_streams)
        guard count > 1 else { return nil }
        let video = Int(av_find_best_stream(input, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0))
        guard video >= 0 else { return nil }

        let packetOwner = try OwnedPacket(subject: source)
        defer { withExtendedLifetime(packetOwner) {} }
        let packet: UnsafeMutablePointer<AVPacket>? = packetOwner.pointer
        var videoEnds: [Int64] = []      // each video packet's end, in decode order
        var frameDuration: Int64 = 0
        var otherEnd: Int64 = .max       // the shortest other stream's end
        var otherEnds = [Int: Int64]()
        while av_read_frame(input, packet) >= 0 {
            defer { av_packet_unref(packet) }
            let index = Int(packet!.pointee.stream_index)
            guard index < count, let shown = PacketTiming.shownEnd(packet!, in: input!.pointee.streams[index]!) else { continue }
            let base = input!.pointee.streams[index]!.pointee.time_base
            let stop = av_rescale_q(shown, base, cffmpeg_time_base_q())
            if index == video {
                videoEnds.append(stop)
                frameDuration = max(frameDuration, av_rescale_q(shown - packet!.pointee.pts, base, cffmpeg_time_base_q()))
            } else {
                otherEnds[index] = max(otherEnds[index] ?? 0, stop)
            }
        }
        for (_, end) in otherEnds { otherEnd = min(otherEnd, end) }
        guard let videoEnd = videoEnds.max(), otherEnd != .max else { return nil }
        let common = min(videoEnd, otherEnd)
        let limit = common + frameDuration / 2
        var kept = 0
        var keptEnd: Int64 = 0
        for stop in videoEnds {
            if stop > limit { break }
            kept += 1
            keptEnd = max(keptEnd, stop)
        }
        return CommonEnd(videoStream: video, videoPackets: kept, end: keptEnd)
    }
}
