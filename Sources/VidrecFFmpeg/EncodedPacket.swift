import CFFmpeg
import VidrecMedia

/// One packet from an encoder, shared by every output it is sent to: the data is
/// reference-counted (`av_packet_ref`), so a file and a live stream hold the same bytes,
/// not copies. Timestamps are in the encoder's time base; each muxer rescales them into
/// its own stream's.
public final class EncodedPacket: @unchecked Sendable {
    // Sendable: the packet is filled before it is shared and only read after; each
    // muxer writes a new reference of its own (`av_packet_ref`), never this one.

    /// The stream it belongs to.
    public let stream: EncodedStream
    /// Whether a decoder can start here (a keyframe, for video; every audio packet).
    public let isKeyframe: Bool
    /// Bytes of data.
    public let size: Int
    /// The segment of a movie cut into files (``SegmentPlan``) the packet belongs to; 0
    /// when it is not cut.
    public let segment: Int
    /// The frame slot where that segment starts: the plan's, or for a copied stream the
    /// camera's first keyframe at or after it. 0 when the movie is not cut.
    public let segmentStart: Int64
    let pointer: UnsafeMutablePointer<AVPacket>

    /// Takes a new reference to `packet`'s data and properties.
    ///
    /// The corresponding C function is `av_packet_clone`.
    init(_ packet: UnsafePointer<AVPacket>, stream: EncodedStream, segment: Int = 0, segmentStart: Int64 = 0) throws(FFmpegError) {
        self.stream = stream
        self.segment = segment
        self.segmentStart = segmentStart
        pointer = try allocated(av_packet_clone(packet), "av_packet_clone", stream.encoderName)
        isKeyframe = stream.kind == .audio || pointer.pointee.flags & AV_PKT_FLAG_KEY != 0
        size = Int(pointer.pointee.size)
    }

    /// Video or audio.
    public var kind: MediaKind { stream.kind }

    /// The presentation time in the encoder's time base (for video, the frame's slot).
    public var presentationTime: Int64 { pointer.pointee.pts }

    /// Makes `packet` a new reference to this packet's data for a muxer's `stream`: its
    /// index, and the timestamps moved back by `offset` (in the encoder's time base: a
    /// segment's start) and rescaled from the encoder's time base into the stream's.
    /// The corresponding C functions are `av_packet_ref` and `av_packet_rescale_ts`.
    /// With `clamped`, a packet that now starts before 0 starts at 0, and one that ends
    /// after `end` (in the shifted time), if given, ends there, shortened by as much (a
    /// clock track's cue that began before a file's start, or goes on after its end).
    func reference(into packet: UnsafeMutablePointer<AVPacket>, for stream: UnsafeMutablePointer<AVStream>,
                   shiftedBack offset: Int64 = 0, clamped: Bool = false, end: Int64? = nil, subject: String) throws(FFmpegError) {
        try check(av_packet_ref(packet, pointer), "av_packet_ref", subject)
        packet.pointee.stream_index = stream.pointee.index
        if offset != 0 {
            if packet.pointee.pts != cffmpeg_nopts_value() { packet.pointee.pts -= offset }
            if packet.pointee.dts != cffmpeg_nopts_value() { packet.pointee.dts -= offset }
        }
        if clamped, packet.pointee.pts != cffmpeg_nopts_value() {
            if packet.pointee.pts < 0 {
                packet.pointee.duration = max(1, packet.pointee.duration + packet.pointee.pts)
                (packet.pointee.pts, packet.pointee.dts) = (0, 0)
            }
            if let end, packet.pointee.pts + packet.pointee.duration > end {
                packet.pointee.duration = max(1, end - packet.pointee.pts)
            }
        }
        av_packet_rescale_ts(packet, self.stream.timeBase, stream.pointee.time_base)
    }

    /// Whether this packet is presented at or after `other`, each in its own time base.
    /// The corresponding C function is `av_compare_ts`.
    func startsAtOrAfter(_ other: EncodedPacket) -> Bool {
        av_compare_ts(presentationTime, stream.timeBase, other.presentationTime, other.stream.timeBase) >= 0
    }

    /// The packet's length in seconds.
    public var seconds: Double {
        Double(pointer.pointee.duration) * av_q2d(stream.timeBase)
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }
}
