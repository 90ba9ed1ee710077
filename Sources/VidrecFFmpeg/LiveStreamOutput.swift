import CFFmpeg
import Synchronization
import VidrecMedia
import VidrecSystem

/// A live stream beside the movie file (`--live URL`): the encoder's packets, the same
/// ones the file gets (no second encode), published to an RTMP, SRT or RTSP server.
///
/// The file comes first. The stream runs on its own thread behind a
/// ``PacketConnection`` with ``PacketPolicy/sideOutput``, and never fails the
/// recording: when the server cannot be reached, refuses, drops the connection or stops
/// reading for ``timeout`` seconds, the stream drops what it cannot send and connects
/// again at a later keyframe, waiting longer after each failed attempt
/// (``ReconnectBackoff``). What happened is reported as it happens, and summed up at the
/// end.
public final class LiveStreamOutput: PacketOutput {
    /// The server.
    public let destination: LiveDestination

    public var outputName: String { "live stream \(destination)" }

    /// The longest any connect, send or close may wait on the server, in seconds.
    public static let timeout = 5.0
    /// The longest the end of the stream may wait on the server, in seconds.
    static let closingTimeout = 2.0
    /// The most audio kept while not connected, in seconds: more than the encoder holds
    /// video back (x264's lookahead and threads), so that a stream that starts at a
    /// keyframe has the audio from that moment on.
    static let heldAudioSeconds = 3.0

    private let streams: [EncodedStream]
    private let report: @Sendable (String) -> Void
    private let deadline = InterruptDeadline()
    private var connection: LiveStreamConnection?
    private var backoff = ReconnectBackoff()
    private var nextAttempt: Int64 = 0
    private var failedAttempts = 0
    private var connections = 0
    private var interruptions = 0
    private var sentVideoSeconds = 0.0
    private var missedVideoSeconds = 0.0
    private var bytesOfEarlierConnections: Int64 = 0
    private var waitingAudio: [EncodedPacket] = []
    private let ending = Atomic<Bool>(false)
    private var queueDrops: Int64 = 0

    /// Checks that the protocol's container can carry `streams`; connects later, on the
    /// output's thread, with the first keyframe.
    ///
    /// - Parameters:
    ///   - report: where connections, losses and the closing summary are told (one line
    ///     each, without `vidrec:`).
    /// - Throws: ``FFmpegError`` of kind ``FFmpegError/Kind/unsupportedSettings`` when the
    ///   container cannot carry a codec (Opus over RTMP).
    public init(destination: LiveDestination, streams: [EncodedStream],
                report: @escaping @Sendable (String) -> Void) throws(FFmpegError) {
        self.destination = destination
        // A clock track stays in the files: FLV and MPEG-TS carry no timed text.
        self.streams = streams.filter { $0.kind != .subtitle }
        self.report = report
        // It joins the server at a video keyframe: a sound recording has none.
        guard streams.contains(where: { $0.kind == .video }) else {
            throw FFmpegError("--live", "\(destination)", code: cffmpeg_averror(EINVAL),
                              hint: "a live stream carries video, and this recording has no camera; leave out --live or give a camera",
                              kind: .unsupportedSettings)
        }
        guard let format = av_guess_format(destination.muxerName, nil, nil) else {
            throw FFmpegError("av_guess_format", destination.muxerName, code: cffmpeg_averror(ENOSYS),
                              hint: "this FFmpeg cannot write \(destination.muxerName) for \(destination.scheme.rawValue)://",
                              kind: .unsupportedSettings)
        }
        for stream in self.streams where avformat_query_codec(format, stream.codecID, FF_COMPLIANCE_NORMAL) == 0 {
            let codec = String(cString: avcodec_get_name(stream.codecID))
            throw FFmpegError("avformat_query_codec", "\(codec) for \(destination)", code: cffmpeg_averror(EINVAL),
                              hint: "\(destination.scheme.rawValue):// carries \(destination.muxerName), which cannot hold \(codec); record with a preset that uses H.264 and AAC, such as 'medium'",
                              kind: .unsupportedSettings)
        }
    }

    /// Bytes sent to the server, over every connection.
    public var bytesWritten: Int64 { bytesOfEarlierConnections + (connection?.bytesWritten ?? 0) }

    /// Sends `packet`, connecting first at a keyframe when not connected (and the wait
    /// after the last failed attempt is over); drops it when there is no connection.
    /// Never throws: the stream's failures are its own, never the recording's.
    public func write(_ packet: EncodedPacket) throws {
        guard packet.kind != .subtitle else { return }
        if connection == nil {
            guard packet.kind == .video, packet.isKeyframe, MonotonicClock.now() >= nextAttempt,
                  !ending.load(ordering: .relaxed), connect() else {
                hold(packet)
                return
            }
            // The encoder holds video back longer than audio: the audio of the
            // keyframe's moment and after has already come, and goes first.
            let audio = waitingAudio.filter { $0.startsAtOrAfter(packet) }
            waitingAudio.removeAll()
            for earlier in audio where !send(earlier) { return }
        }
        _ = send(packet)
    }

    /// Sends one packet on the connection; on failure, reports the loss, closes the
    /// connection and returns `false`.
    private func send(_ packet: EncodedPacket) -> Bool {
        guard let connection else { return false }
        do {
            try connection.write(packet, timeout: LiveStreamOutput.timeout)
            if packet.kind == .video { sentVideoSeconds += packet.seconds }
            return true
        } catch {
            if packet.kind == .video { missedVideoSeconds += packet.seconds }
            interruptions += 1
            report("\(outputName): lost (\(reason(error))); the file records on, reconnecting")
            drop(closingWithin: 1)
            return false
        }
    }

    /// Keeps what comes while there is no connection: the latest audio, for the
    /// keyframe that (re)starts the stream; video only counts as missed.
    private func hold(_ packet: EncodedPacket) {
        switch packet.kind {
        case .video:
            missedVideoSeconds += packet.seconds
        case .audio:
            waitingAudio.append(packet)
            var seconds = waitingAudio.reduce(0) { $0 + $1.seconds }
            while seconds > LiveStreamOutput.heldAudioSeconds, let oldest = waitingAudio.first {
                seconds -= oldest.seconds
                waitingAudio.removeFirst()
            }
        case .subtitle:
            break
        }
    }

    /// Counts the video its queue dropped while the stream was too slow for the encoder.
    public func queueDropped(videoPackets: Int64) { queueDrops = videoPackets }

    /// No connection attempts from now on: the recording is ending.
    public func inputEnded() { ending.store(true, ordering: .relaxed) }

    /// Ends the stream (sends the trailer) and reports what was sent and missed.
    public func finish() throws {
        drop(closingWithin: LiveStreamOutput.closingTimeout)
        var summary = String(format: "%@: sent %.1f s of video", outputName, sentVideoSeconds)
        if connections == 0 {
            summary = "\(outputName): never connected (\(failedAttempts) attempt\(failedAttempts == 1 ? "" : "s")); the file has everything"
        } else if missedVideoSeconds > 0 {
            let why = interruptions == 0 ? "before the first connection" : "\(interruptions) interruption\(interruptions == 1 ? "" : "s")"
            summary += String(format: ", %.1f s not sent (%@)", missedVideoSeconds, why)
        }
        if queueDrops > 0 {
            summary += ", \(queueDrops) video packet\(queueDrops == 1 ? "" : "s") dropped while the stream could not keep up"
        }
        report(summary)
    }

    /// Tries to connect; on failure, says so the first time and schedules the next
    /// attempt.
    private func connect() -> Bool {
        do {
            connection = try LiveStreamConnection(to: destination, streams: streams, deadline: deadline,
                                                  timeout: LiveStreamOutput.timeout)
        } catch {
            if failedAttempts == 0 {
                let what = connections == 0 ? "cannot connect" : "cannot reconnect yet"
                report("\(outputName): \(what) (\(reason(error))); the file records on, retrying every \(Int(ReconnectBackoff.maximum)) s at most")
            }
            failedAttempts += 1
            nextAttempt = MonotonicClock.now() + Int64(backoff.next() * 1e9)
            return false
        }
        report("\(outputName): " + (connections == 0 ? "publishing" : "publishing again") +
               (failedAttempts > 0 ? " after \(failedAttempts) failed attempt\(failedAttempts == 1 ? "" : "s")" : ""))
        connections += 1
        failedAttempts = 0
        backoff.reset()
        return true
    }

    /// Closes the connection, if any, giving the server `seconds` to take the end.
    private func drop(closingWithin seconds: Double) {
        guard let connection else { return }
        connection.close(timeout: seconds)
        bytesOfEarlierConnections += connection.bytesWritten
        self.connection = nil
    }

    /// What went wrong, in words: a deadline that passed reads as such, not as FFmpeg's
    /// "Immediate exit requested".
    private func reason(_ error: any Error) -> String {
        guard !deadline.hasExpired else {
            return "no answer from the server within \(Int(LiveStreamOutput.timeout)) s"
        }
        guard let error = error as? FFmpegError else { return "\(error)" }
        return "\(error.operation): \(error.reason)"
    }
}
