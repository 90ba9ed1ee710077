import CFFmpeg
import VidrecMedia

/// The video stream of a movie that stores the camera's own compressed frames (H.264
/// access units, JPEG images) as they are, as `ffmpeg -c:v copy` does: no decoder, no
/// encoder, a copy of each frame's bytes into a padded packet.
///
/// Timing is the session's: a frame's slot is its presentation and decoding time (the
/// camera sends no B-frames; ``KeyframeGate`` refuses a stream that has them). Each
/// packet is held until the next one arrives, so that it lasts until then: a slot the
/// camera skipped, a repeat of the last frame (the end of a `--max` recording, a
/// camera switch) lengthens the packet before it instead of copying a frame twice.
///
/// A lost H.264 frame (a gap in the camera's sequence numbers: the driver, a queue or
/// the timeline left one out) breaks every picture up to the next keyframe: those are
/// left out (counted in ``leftOutFrames``), the picture before stays on screen, and the
/// camera is asked for a keyframe at once.
///
/// A movie cut into segments (``cut(into:)``) is cut where the camera's frames allow: a
/// segment starts at the first keyframe at or after each of the plan's boundaries (every
/// JPEG frame is one; for H.264 the camera is asked for one as the boundary comes).
final class VideoStreamCopier {
    let stream: EncodedStream
    let name: String
    /// Frames left out because one before them, since their keyframe, was lost.
    private(set) var leftOutFrames = 0

    private let format: PixelFormat
    private let requestKeyframe: () -> Void
    private let packetOwner: OwnedPacket
    private var packet: UnsafeMutablePointer<AVPacket> { packetOwner.pointer }
    /// The packet waiting for its duration: its slot, the frame it came from, and its
    /// segment with that segment's first slot.
    private var held: (slot: Int64, sequence: UInt64, captureTime: Int64, segment: Int, segmentStart: Int64)?
    /// Where the movie is cut, if it is.
    private var plan: SegmentPlan?
    /// The segment of the newest frame, and the slot where it starts.
    private(set) var segment = 0
    private(set) var segmentStart: Int64 = 0
    /// The plan's next boundary: the next segment starts at the first keyframe from here.
    private var nextBoundary = Int64.max
    private var askedForCut = false
    /// The last slot a frame (or a repeat of one) was given.
    private var lastSlot: Int64 = -1
    private var lastSequence: UInt64?
    private var waitingForKeyframe = false

    /// Describes the copied stream for the muxers.
    ///
    /// - Parameters:
    ///   - copied: the camera's format and, for H.264, its parameter sets.
    ///   - settings: the movie's size and frame rate (the camera's, as chosen).
    ///   - requestKeyframe: asks the camera for a keyframe after a lost frame.
    init(_ copied: CopiedStream, settings: VideoEncoding, requestKeyframe: @escaping () -> Void) throws {
        format = copied.format
        let h264 = copied.format == .h264
        name = "\(h264 ? "H.264" : "MJPEG") copied from the camera"
        self.requestKeyframe = requestKeyframe
        // A copied H.264 stream starts at a keyframe, whatever comes first.
        waitingForKeyframe = h264
        packetOwner = try OwnedPacket(subject: name)
        let parameters = try OwnedCodecParameters(subject: name)
        let p = parameters.pointer
        p.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        p.pointee.codec_id = h264 ? AV_CODEC_ID_H264 : AV_CODEC_ID_MJPEG
        p.pointee.width = Int32(settings.width)
        p.pointee.height = Int32(settings.height)
        p.pointee.format = (h264 ? AV_PIX_FMT_YUV420P : AV_PIX_FMT_YUVJ422P).rawValue
        p.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        if !copied.header.isEmpty {
            let size = copied.header.count
            guard let extradata = av_mallocz(size + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
                throw FFmpegError("av_mallocz", name, code: cffmpeg_averror(ENOMEM))
            }
            copied.header.withUnsafeBytes { extradata.copyMemory(from: $0.baseAddress!, byteCount: size) }
            p.pointee.extradata = extradata.assumingMemoryBound(to: UInt8.self)
            p.pointee.extradata_size = Int32(size)
        }
        let rate = AVRational(num: Int32(settings.frameRate.numerator), den: Int32(settings.frameRate.denominator))
        stream = EncodedStream(copied: parameters, timeBase: av_inv_q(rate), frameRate: rate, name: name)
        stream.rotation = settings.rotation
    }

    /// Cuts the copied stream as `plan` says, on the camera's keyframes. Call before the
    /// first frame.
    func cut(into plan: SegmentPlan) {
        self.plan = plan
        nextBoundary = plan.boundary(after: 0)
    }

    /// The slot up to which no new segment can start any more: the plan's next boundary,
    /// or the slot after the newest frame if that is later (no keyframe came before it).
    var cutsDecidedUntil: Int64 { max(nextBoundary, lastSlot + 1) }

    /// Takes the frame for `slot`.
    ///
    /// - Returns: the packet before it, now that its duration is known; `nil` when none
    ///   is complete (the first frame, a repeat, a frame left out).
    func append(_ frame: VideoFrame, slot: Int64) throws -> EncodedPacket? {
        lastSlot = max(lastSlot, slot)
        if let held, held.sequence == frame.sequence, held.captureTime == frame.captureTime { return nil }
        let bytes = UnsafeRawBufferPointer(start: frame.buffer.bytes, count: frame.byteCount)
        let isKeyframe = frame.isKeyframe
        if format == .h264 {
            if let lastSequence, frame.sequence != lastSequence + 1, held != nil {
                // A camera switch restarts the numbers at a keyframe; anything else is a loss.
                waitingForKeyframe = true
                requestKeyframe()
            }
            lastSequence = frame.sequence
            if waitingForKeyframe {
                guard isKeyframe else { leftOutFrames += 1; return nil }
                waitingForKeyframe = false
            }
        }
        if let plan {
            // Ask for a keyframe a frame before the boundary; cut at the first one from it.
            if format == .h264, !askedForCut, slot >= nextBoundary - 1 {
                requestKeyframe()
                askedForCut = true
            }
            if isKeyframe, slot >= nextBoundary {
                segment += 1
                segmentStart = slot
                nextBoundary = plan.boundary(after: slot)
                askedForCut = false
            }
        }
        let completed = try complete(endingAt: slot)
        try check(av_new_packet(packet, Int32(clamping: frame.byteCount)), "av_new_packet", name)
        packet.pointee.data.update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: frame.byteCount)
        packet.pointee.pts = slot
        packet.pointee.dts = slot
        if isKeyframe { packet.pointee.flags |= AV_PKT_FLAG_KEY }
        held = (slot, frame.sequence, frame.captureTime, segment, segmentStart)
        return completed
    }

    /// The last packet, lasting to the last slot given; `nil` when there is none.
    func finish() throws -> EncodedPacket? {
        try complete(endingAt: lastSlot + 1)
    }

    /// The held packet with its duration up to `end`, or `nil` when none is held.
    private func complete(endingAt end: Int64) throws -> EncodedPacket? {
        guard let held else { return nil }
        self.held = nil
        packet.pointee.duration = max(1, end - held.slot)
        defer { av_packet_unref(packet) }
        return try EncodedPacket(packet, stream: stream, segment: held.segment, segmentStart: held.segmentStart)
    }
}
