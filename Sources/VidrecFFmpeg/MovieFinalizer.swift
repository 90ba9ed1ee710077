import CFFmpeg
import Glibc
import VidrecMedia

/// Turns a recording written as fragments (or cut short by a crash) into an ordinary
/// movie with its index at the front (`movflags=+faststart`), so that it opens at
/// once, seeks anywhere, and reports its duration without a scan.
///
/// Packets are copied, not re-encoded. A truncated last fragment is dropped: the
/// result holds everything up to the last complete fragment. For a crashed recording
/// the streams are also trimmed to their common end, so that audio and video end
/// together as they do in a recording that was stopped.
public struct MovieFinalizer: Sendable {
    /// Creates a finalizer.
    public init() {}

    /// Whether files in `container` are rewritten at all (Matroska/WebM are indexed
    /// by their own trailer and are only copied).
    public func rewrites(_ container: Container) -> Bool { container.isFragmentedWhileRecording }

    /// Writes `destination` (which must not exist) from `source`.
    ///
    /// - Parameter trimToCommonEnd: end both streams where the shorter one ends (see
    ///   ``CommonEnd``); this reads the source twice.
    /// - Returns: the duration of the result in seconds.
    /// - Throws: ``FFmpegError`` when `source` holds no playable media or writing fails.
    @discardableResult
    public func finalize(source: String, destination: String, trimToCommonEnd: Bool) throws -> Double {
        let cut = trimToCommonEnd ? try CommonEnd.scan(source) : nil
        let demuxer = try InputFormatContext(path: source)
        defer { withExtendedLifetime(demuxer) {} }
        let input: UnsafeMutablePointer<AVFormatContext>? = demuxer.pointer
        try check(avformat_find_stream_info(input, nil), "avformat_find_stream_info", source)

        let inputMuxer = String(cString: input!.pointee.iformat.pointee.name).contains("mp4") ? "mp4" : "matroska"
        let wantedMuxer = destination.hasSuffix(".mov") ? "mov" : destination.hasSuffix(".webm") ? "webm" : inputMuxer
        let muxer = try OutputFormatContext(muxer: wantedMuxer, path: destination)
        defer { withExtendedLifetime(muxer) {} }
        let output: UnsafeMutablePointer<AVFormatContext>? = muxer.pointer
        let streamCount = Int(input!.pointee.nb_streams)
        for index in 0..<streamCount {
            let inStream = input!.pointee.streams[index]!
            let outStream = try allocated(avformat_new_stream(output, nil), "avformat_new_stream", destination)
            try check(avcodec_parameters_copy(outStream.pointee.codecpar, inStream.pointee.codecpar),
                      "avcodec_parameters_copy", destination)
            outStream.pointee.codecpar.pointee.codec_tag = 0
            outStream.pointee.time_base = inStream.pointee.time_base
            outStream.pointee.avg_frame_rate = inStream.pointee.avg_frame_rate
        }
        try muxer.openFile(destination)
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        if wantedMuxer == "mp4" || wantedMuxer == "mov" { av_dict_set(&options, "movflags", "+faststart", 0) }
        try check(avformat_write_header(output, &options), "avformat_write_header", destination)

        let packetOwner = try OwnedPacket(subject: source)
        defer { withExtendedLifetime(packetOwner) {} }
        let packet: UnsafeMutablePointer<AVPacket>? = packetOwner.pointer
        var end: [Int64] = Array(repeating: 0, count: streamCount)
        var videoPackets = 0
        // Each stream's newest packet is held back until the next one comes: the last
        // one's duration is set at the end so that the stream lasts exactly until its
        // latest frame ends. An MP4 track lasts from its first decode time to the last
        // decode time plus that packet's duration; with B-frames, and frames dropped near
        // the end, the last packet in decode order is not the latest shown.
        let heldOwners = try (0..<streamCount).map { _ in try OwnedPacket(subject: source) }
        defer { withExtendedLifetime(heldOwners) {} }
        let held = heldOwners.map(\.pointer)
        var holding = Array(repeating: false, count: streamCount)
        // In the output time base: where each stream's pictures end, where they start,
        // and its first decode time.
        var shownEnd = Array(repeating: Int64.min, count: streamCount)
        var shownStart = Array(repeating: Int64.max, count: streamCount)
        var firstDecode = Array(repeating: Int64.min, count: streamCount)
        let isVideo = (0..<streamCount).map { input!.pointee.streams[$0]!.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO }
        while true {
            let read = av_read_frame(input, packet)
            // A crash leaves a torn last fragment: end there, keeping what is whole.
            if read < 0 { break }
            defer { av_packet_unref(packet) }
            let index = Int(packet!.pointee.stream_index)
            guard index < streamCount else { continue }
            let inBase = input!.pointee.streams[index]!.pointee.time_base
            let outBase = output!.pointee.streams[index]!.pointee.time_base
            let pts = packet!.pointee.pts
            if let cut {
                let keep = index == cut.videoStream
                    ? videoPackets < cut.videoPackets
                    : pts == cffmpeg_nopts_value() || av_compare_ts(pts, inBase, cut.end, cffmpeg_time_base_q()) < 0
                if index == cut.videoStream { videoPackets += 1 }
                if !keep { continue }
            }
            var shownFor: Int64?
            if let shown = PacketTiming.shownEnd(packet!, in: input!.pointee.streams[index]!) {
                end[index] = max(end[index], av_rescale_q(shown, inBase, cffmpeg_time_base_q()))
                shownEnd[index] = max(shownEnd[index], av_rescale_q(shown, inBase, outBase))
                shownStart[index] = min(shownStart[index], av_rescale_q(pts, inBase, outBase))
                shownFor = av_rescale_q(shown, inBase, outBase) - av_rescale_q(pts, inBase, outBase)
            }
            av_packet_rescale_ts(packet, inBase, outBase)
            // A video frame is shown for one frame period: the muxer ends the movie at the
            // latest presentation time plus duration, and a demuxed duration (the gap to
            // the next decode time) would carry it past the latest frame's end.
            if isVideo[index], let shownFor { packet!.pointee.duration = shownFor }
            packet!.pointee.pos = -1
            if firstDecode[index] == Int64.min, packet!.pointee.dts != cffmpeg_nopts_value() {
                firstDecode[index] = packet!.pointee.dts
            }
            if holding[index] {
                try check(av_interleaved_write_frame(output, held[index]), "av_interleaved_write_frame", destination)
            }
            av_packet_move_ref(held[index], packet)
            holding[index] = true
        }
        for index in 0..<streamCount where holding[index] {
            let last = held[index]
            var dts = last.pointee.dts != cffmpeg_nopts_value() ? last.pointee.dts : last.pointee.pts
            if dts != cffmpeg_nopts_value(), shownEnd[index] != Int64.min, firstDecode[index] != Int64.min {
                // The track's length is counted twice, and both must be the span shown,
                // from the first picture to the end of the latest: by decode times (last
                // decode time + duration - first decode time) and by presentation times
                // (the latest presentation time + duration). They agree when the last
                // packet is shown as long after it is decoded as the first was; a later
                // one (frames reordered around a gap) is decoded later to match, which
                // keeps the decode order.
                let initialDelay = shownStart[index] - firstDecode[index]
                let pts = last.pointee.pts
                if isVideo[index], pts != cffmpeg_nopts_value(), pts - dts > initialDelay {
                    dts = pts - initialDelay
                    last.pointee.dts = dts
                }
                let wanted = (shownEnd[index] - shownStart[index]) - (dts - firstDecode[index])
                last.pointee.duration = max(last.pointee.duration, wanted)
            }
            try check(av_interleaved_write_frame(output, last), "av_interleaved_write_frame", destination)
        }
        try check(av_write_trailer(output), "av_write_trailer", destination)
        try FileSystem.sync(destination)
        return Double(end.max() ?? 0) / Double(AV_TIME_BASE)
    }
}

extension MovieFinalizer: MovieFinalizing {}
