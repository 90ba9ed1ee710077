import CFFmpeg
import VidrecMedia
import VidrecSystem

/// The wall-clock track of a movie (`--clock-track`): a timed-text stream with a cue a
/// second, each giving the local time at which the picture it starts with was captured
/// (`2026-12-07 14:03:09 +0100`), so that a player that shows tracks shows the time
/// beside the picture, and a script can read it, without a pixel of the picture changed
/// (it works with `--video copy`).
///
/// MP4 and MOV carry it as 3GPP timed text (`mov_text`), Matroska as SubRip and WebM as
/// WebVTT. A cue starts at the first picture of each second of the movie, and at the
/// first picture of each segment, so that every file of a series begins with one.
final class ClockTrack {
    /// The `strftime` form of each cue.
    static let format = "%F %T %z"

    /// The track's stream, to add beside the movie's video and audio.
    let stream: EncodedStream
    private let frameRate: Rational
    private let isMovText: Bool
    private let packetOwner: OwnedPacket
    /// The second of the movie and the segment of the last cue.
    private var last: (second: Int64, segment: Int)?
    /// The cue begun and not yet sent: it lasts until the next one starts (or the
    /// movie ends), which is known only then. Its text is made when it begins.
    private var pending: (start: Int64, payload: [UInt8], segment: Int, segmentStart: Int64)?
    /// Where the latest frame slot seen ends, in milliseconds.
    private var end: Int64 = 0

    /// Describes the track for `container`, whose movie runs at `frameRate`.
    init(container: Container, frameRate: Rational) throws(FFmpegError) {
        let codec: AVCodecID
        switch container {
        case .mkv: codec = AV_CODEC_ID_SUBRIP
        case .webm: codec = AV_CODEC_ID_WEBVTT
        default: codec = AV_CODEC_ID_MOV_TEXT
        }
        isMovText = codec == AV_CODEC_ID_MOV_TEXT
        stream = try EncodedStream(timedText: codec, extradata: isMovText ? ClockTrack.textSampleEntry : [],
                                   cuesPerSecond: 1, name: "clock track")
        self.frameRate = frameRate
        packetOwner = try OwnedPacket(subject: "clock track")
    }

    /// Where frame slot `slot` of a movie at `frameRate` starts, in the track's
    /// milliseconds (a segment's file counts its cues from its first slot's).
    static func milliseconds(ofSlot slot: Int64, frameRate: Rational) -> Int64 {
        (Rational(slot * 1000) * frameRate.reciprocal).rounded
    }

    private func milliseconds(ofSlot slot: Int64) -> Int64 { ClockTrack.milliseconds(ofSlot: slot, frameRate: frameRate) }

    /// Notes frame slot `slot`, captured at `captureTime` (on ``MonotonicClock``), in
    /// `segment` starting at slot `segmentStart`. A slot that begins a new second of the
    /// movie or a new segment begins a cue, and the cue before it, now whole, is
    /// returned to be sent.
    func cue(atSlot slot: Int64, capturedAt captureTime: Int64, segment: Int, segmentStart: Int64) throws(FFmpegError) -> EncodedPacket? {
        end = milliseconds(ofSlot: slot + 1)
        let second = slot * frameRate.denominator / frameRate.numerator
        if let last, last.second == second, last.segment == segment { return nil }
        last = (second, segment)
        let start = milliseconds(ofSlot: slot)
        let whole = try pending.map { cue throws(FFmpegError) in try packet(cue, until: start) }
        let wall = WallClock.time(ofMonotonic: captureTime) / 1_000_000_000
        let text = Array((WallClock.localText(ClockTrack.format, seconds: wall) ?? "").utf8)
        // 3GPP timed text: the text's length in two bytes, then the text.
        pending = (start, isMovText ? [UInt8(text.count >> 8), UInt8(text.count & 0xFF)] + text : text, segment, segmentStart)
        return whole
    }

    /// The last cue, lasting to the end of the latest slot; `nil` when there is none.
    func finish() throws(FFmpegError) -> EncodedPacket? {
        defer { pending = nil }
        return try pending.map { cue throws(FFmpegError) in try packet(cue, until: end) }
    }

    /// The packet of `cue`, lasting until `until` (milliseconds).
    ///
    /// The corresponding C function is `av_new_packet`.
    private func packet(_ cue: (start: Int64, payload: [UInt8], segment: Int, segmentStart: Int64),
                        until: Int64) throws(FFmpegError) -> EncodedPacket {
        let packet = packetOwner.pointer
        try check(av_new_packet(packet, Int32(cue.payload.count)), "av_new_packet", "clock track")
        defer { av_packet_unref(packet) }
        packet.pointee.data.update(from: cue.payload, count: cue.payload.count)
        (packet.pointee.pts, packet.pointee.dts) = (cue.start, cue.start)
        packet.pointee.duration = max(1, until - cue.start)
        packet.pointee.flags |= AV_PKT_FLAG_KEY
        return try EncodedPacket(packet, stream: stream, segment: cue.segment, segmentStart: cue.segmentStart)
    }

    /// The 3GPP timed-text sample description (TS 26.245, as FFmpeg's mov_text encoder
    /// writes it): no display flags, centred at the bottom, on no background, in the
    /// first font (Serif) at 18 points, white.
    static let textSampleEntry: [UInt8] = [
        0x00, 0x00, 0x00, 0x00,  // display flags
        0x01, 0xFF,  // horizontal and vertical justification
        0x00, 0x00, 0x00, 0x00,  // background colour, RGBA
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // text box: top, left, bottom, right
        0x00, 0x00, 0x00, 0x00,  // style record: start and end character
        0x00, 0x01, 0x00, 0x12,  // font 1, no face style, 18 points
        0xFF, 0xFF, 0xFF, 0xFF,  // text colour, RGBA
        0x00, 0x00, 0x00, 0x12, 0x66, 0x74, 0x61, 0x62,  // font table box ('ftab'), 18 bytes
        0x00, 0x01, 0x00, 0x01, 0x05, 0x53, 0x65, 0x72, 0x69, 0x66,  // one font: 1, "Serif"
    ]
}
