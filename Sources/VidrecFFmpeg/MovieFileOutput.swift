import CFFmpeg
import VidrecMedia
import VidrecMP4
import VidrecSystem

/// The movie file output: muxes encoded packets into a file that stays playable while it
/// is being written, as `AVCaptureMovieFileOutput` does.
///
/// MP4 and MOV are written as fragmented MP4 (a fragment every tenth of a second), every
/// fragment flushed to the kernel as soon as it is complete and synced to disk about
/// once a second, after room kept at the front for the index. After ``finish()`` the
/// fragmented file is complete and playable; ``MovieFinalizer`` then writes its index in
/// place (into that room when it fits), without copying the movie.
public final class MovieFileOutput: PacketOutput {
    /// The file being written.
    public let path: String

    public var outputName: String { "movie file \(path)" }

    // Owners, each freeing its own C object, so that a throw part-way through the
    // initializer frees what was made so far. The muxer is declared first: its I/O
    // context belongs to `io`.
    private let muxer: OutputFormatContext
    private let io: FileOutputIO
    private let packetOwner: OwnedPacket
    /// The muxer's stream for each encoded stream, by kind.
    private var streams: [MediaKind: UnsafeMutablePointer<AVStream>] = [:]
    private var format: UnsafeMutablePointer<AVFormatContext> { muxer.pointer }
    private var packet: UnsafeMutablePointer<AVPacket> { packetOwner.pointer }
    private var lastSync: Int64 = MonotonicClock.now()
    private var headerWritten = false
    private var finished = false

    /// Creates `path` (which must not exist) and writes the movie header.
    ///
    /// - Parameters:
    ///   - path: the file to create.
    ///   - container: the file's format.
    ///   - streams: the encoder's streams (``MovieEncoder/streams``), one of each kind.
    ///   - indexSeconds: for MP4 and MOV, how long a recording the room kept at the front
    ///     for the index is sized for (a longer one has its index at the end).
    ///   - maxBytes: the most the file may take (its size limit, or the free space left),
    ///     if known; the room takes at most a twentieth of it.
    ///   - metadata: tags for the movie (``MovieSettings/metadata``).
    /// - Throws: ``FFmpegError`` or ``SystemError``, naming the codec, option or file.
    public init(path: String, container: Container, streams encoded: [EncodedStream],
                indexSeconds: Double = MovieFileOutput.defaultIndexSeconds, maxBytes: Int64? = nil,
                metadata settingsMetadata: [String: String] = [:]) throws {
        self.path = path
        let muxerName = container.muxerName
        muxer = try OutputFormatContext(muxer: muxerName, path: path)
        packetOwner = try OwnedPacket(subject: path)
        for stream in encoded {
            try MovieFileOutput.checkCodec(of: stream, fitsIn: muxer.pointer, container: container)
            if stream.rotation != 0, !container.isFragmentedWhileRecording {
                throw FFmpegError("--rotate", "\(container)", code: cffmpeg_averror(EINVAL),
                                  hint: "only MP4 and MOV carry a rotation for players; use a preset with the mp4 container, or leave out --rotate",
                                  kind: .unsupportedSettings)
            }
            streams[stream.kind] = try stream.addStream(to: muxer.pointer, subject: path)
        }
        io = try FileOutputIO(creating: path, reserving: container.isFragmentedWhileRecording
                              ? MovieFileOutput.indexReservation(for: encoded, seconds: indexSeconds, maxBytes: maxBytes) : [])
        for (key, value) in settingsMetadata {
            av_dict_set(&format.pointee.metadata, key, value, 0)
            // Ogg writes a file's tags as its stream's Vorbis comments.
            if container == .opus, let stream = streams[.audio] { av_dict_set(&stream.pointee.metadata, key, value, 0) }
        }
        format.pointee.pb = io.context
        format.pointee.flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_FLUSH_PACKETS
        if streams[.subtitle] != nil {
            // The interleaving waits for a packet of every stream, and the clock track's
            // come a second apart, past it (``write(_:shiftedBack:clamped:end:)``): without a
            // bound it would hold the video and sound for libavformat's 10 s.
            format.pointee.max_interleave_delta = MovieFileOutput.clockTrackInterleaving
        }
        try muxer.writeHeader(options: container.recordingOptions + MovieFileOutput.timescaleOption(for: encoded, container: container),
                              subject: path)
        headerWritten = true
        try io.flush(durable: true)
    }

    private static func checkCodec(of stream: EncodedStream, fitsIn format: UnsafeMutablePointer<AVFormatContext>,
                              container: Container) throws(FFmpegError) {
        guard avformat_query_codec(format.pointee.oformat, stream.codecID, FF_COMPLIANCE_NORMAL) != 1 else { return }
        let codec = String(cString: avcodec_get_name(stream.codecID))
        throw FFmpegError("avformat_query_codec", "\(codec) in \(container)", code: cffmpeg_averror(EINVAL),
                          hint: "the container '\(container)' cannot hold \(codec); pick another codec or container in the preset",
                          kind: .unsupportedSettings)
    }

    /// The movie time scale for MP4 and MOV, in which the edit lists (and so each track's
    /// presented length) are counted: the audio's sample rate, or 90 kHz without audio,
    /// instead of libavformat's milliseconds. A movie's length is then exact to the
    /// sample (and to the frame at the usual rates), so that segments played back to
    /// back do not drift by a millisecond at every joint.
    static func timescaleOption(for streams: [EncodedStream], container: Container) -> [(String, String)] {
        guard container.isFragmentedWhileRecording else { return [] }
        let rate = streams.first { $0.kind == .audio }.map { $0.timeBase.den / max(1, $0.timeBase.num) } ?? 90000
        return [("movie_timescale", "\(rate)")]
    }

    /// How much video and sound the muxer holds at most, in microseconds, to interleave
    /// them, in a movie with a clock track: a little more than the encoder holds the
    /// video behind the sound (``VideoStreamEncoder/heldSeconds``).
    static let clockTrackInterleaving: Int64 = 500_000

    /// How long a recording without a time limit the room for its index is sized for:
    /// five minutes (a few hundred kilobytes).
    public static let defaultIndexSeconds: Double = 300

    /// The `free` box that keeps room at the front of the file for the index of
    /// `seconds` of `streams`, at most a twentieth of `maxBytes`; none when that is too
    /// little for any index.
    static func indexReservation(for streams: [EncodedStream], seconds: Double, maxBytes: Int64?) -> [UInt8] {
        var frames = 0.0, audioPackets = 0.0
        for stream in streams {
            switch stream.kind {
            case .video: frames = stream.framesPerSecond
            case .audio, .subtitle: audioPackets += stream.packetsPerSecond
            }
        }
        var bytes = FragmentedMovieIndexer.reserve(seconds: seconds, framesPerSecond: frames, audioPacketsPerSecond: audioPackets)
        if let maxBytes { bytes = min(bytes, Int(maxBytes / 20)) }
        return bytes >= FragmentedMovieIndexer.smallestReserve ? FragmentedMovieIndexer.reservation(bytes: bytes) : []
    }

    /// Bytes in the file so far.
    public var bytesWritten: Int64 { io.size }

    /// Writes `encoded`, rescaled from the encoder's time base to the stream's, and
    /// syncs the file to disk about once a second.
    public func write(_ encoded: EncodedPacket) throws {
        try write(encoded, shiftedBack: 0)
    }

    /// Writes `encoded` with its timestamps moved back by `offset` in the encoder's time
    /// base, so that a segment of a longer recording starts at 0.
    ///
    /// The clock track's cues, one a second, go to the muxer as they come rather than
    /// through its interleaving, which would hold the video and sound back until the
    /// next cue (and a crash would lose that much more).
    ///
    /// - Parameters:
    ///   - clamped: a cue that began before `offset` is cut to start at 0, and one that
    ///     goes on past `end` (in the encoder's time base, before the shift) to end there.
    func write(_ encoded: EncodedPacket, shiftedBack offset: Int64, clamped: Bool = false, end: Int64? = nil) throws {
        guard let stream = streams[encoded.kind] else { return }
        try encoded.reference(into: packet, for: stream, shiftedBack: offset, clamped: clamped, end: end.map { $0 - offset },
                              subject: path)
        let written: Int32
        if encoded.kind == .subtitle {
            written = av_write_frame(format, packet)
            av_packet_unref(packet)
        } else {
            written = av_interleaved_write_frame(format, packet)
        }
        // The file's own error (ENOSPC, EIO) says more than libavformat's, which may even
        // have swallowed it.
        if let writeError = io.writeError { throw writeError }
        try check(written, "av_interleaved_write_frame", path)
        let now = MonotonicClock.now()
        if now - lastSync >= CaptureTiming.syncInterval.nanoseconds {
            lastSync = now
            try io.flush(durable: true)
        }
    }

    public func finish() throws {
        guard !finished else { return }
        finished = true
        try check(av_write_trailer(format), "av_write_trailer", path)
        try io.flush(durable: true)
    }

    deinit {
        if headerWritten && !finished {
            // An error path: close the file as it is. Fragments written so far play.
            av_write_trailer(format)
        }
    }
}
