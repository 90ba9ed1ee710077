import CFFmpeg

/// When a packet's picture or sound stops being shown, in its stream's time base.
///
/// A demuxed MP4 video packet's `duration` is the gap to the next packet's decode time,
/// which with B-frames and dropped frames says nothing about how long the picture is on
/// screen. A video frame is shown for one frame period (the stream's base frame rate,
/// `r_frame_rate`, which gaps do not lower as they lower the average); audio and
/// everything else for the packet's own duration.
enum PacketTiming {
    /// `pts` plus how long the packet is shown; `nil` without a presentation time.
    static func shownEnd(_ packet: UnsafePointer<AVPacket>, in stream: UnsafePointer<AVStream>) -> Int64? {
        let pts = packet.pointee.pts
        guard pts != cffmpeg_nopts_value() else { return nil }
        let rate = stream.pointee.r_frame_rate.num > 0 ? stream.pointee.r_frame_rate : stream.pointee.avg_frame_rate
        if stream.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO, rate.num > 0, rate.den > 0 {
            return pts + max(1, av_rescale_q(1, av_inv_q(rate), stream.pointee.time_base))
        }
        return pts + packet.pointee.duration
    }
}
