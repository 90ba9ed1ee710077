import CFFmpeg
import VidrecMedia

/// One connection of a live stream to its server: a muxer (FLV, MPEG-TS or RTSP's RTP)
/// writing the encoder's packets to the network, every packet flushed at once. A
/// ``LiveStreamOutput`` makes a new one for each (re)connection; a lost one is closed and
/// dropped.
///
/// Every blocking call runs under an ``InterruptDeadline``: no connect, write or close
/// waits longer than the timeout it is given.
final class LiveStreamConnection {
    /// Bytes of packets handed to the muxer.
    private(set) var bytesWritten: Int64 = 0

    // The muxer is declared first: the I/O context it writes to belongs to it.
    private let muxer: OutputFormatContext
    private let packetOwner: OwnedPacket
    private let deadline: InterruptDeadline
    private let subject: String
    private var streams: [MediaKind: UnsafeMutablePointer<AVStream>] = [:]
    private var format: UnsafeMutablePointer<AVFormatContext> { muxer.pointer }
    private var packet: UnsafeMutablePointer<AVPacket> { packetOwner.pointer }
    private var headerWritten = false
    private var closed = false

    /// Connects to `destination` and sends the stream header, within `timeout` seconds.
    ///
    /// - Throws: ``FFmpegError`` naming the step (`avio_open2`, `avformat_write_header`)
    ///   and the server's answer (`Connection refused`), or `Exit requested` when the
    ///   deadline passed (``InterruptDeadline/hasExpired`` then says so).
    init(to destination: LiveDestination, streams encoded: [EncodedStream], deadline: InterruptDeadline,
         timeout: Double) throws(FFmpegError) {
        subject = destination.description
        self.deadline = deadline
        muxer = try OutputFormatContext(muxer: destination.muxerName, path: destination.url)
        packetOwner = try OwnedPacket(subject: subject)
        format.pointee.interrupt_callback = deadline.callback
        format.pointee.flags |= AVFMT_FLAG_FLUSH_PACKETS
        for stream in encoded {
            streams[stream.kind] = try stream.addStream(to: format, subject: subject)
        }
        deadline.arm(seconds: timeout)
        if !destination.muxerOpensConnection {
            try muxer.openURL(destination.url, options: destination.protocolOptions, interrupt: deadline.callback, subject: subject)
        }
        try muxer.writeHeader(options: destination.muxerOptions, subject: subject)
        headerWritten = true
    }

    /// Sends `encoded`, rescaled into the stream's time base, within `timeout` seconds.
    ///
    /// - Throws: ``FFmpegError`` when the server is gone (`Broken pipe`, `Connection
    ///   reset by peer`) or stopped reading for `timeout` seconds.
    func write(_ encoded: EncodedPacket, timeout: Double) throws(FFmpegError) {
        guard let stream = streams[encoded.kind] else { return }
        try encoded.reference(into: packet, for: stream, subject: subject)
        deadline.arm(seconds: timeout)
        try check(av_interleaved_write_frame(format, packet), "av_interleaved_write_frame", subject)
        bytesWritten += Int64(encoded.size)
    }

    /// Sends the trailer (the end of the stream), within `timeout` seconds; the owner then
    /// closes the connection. Errors are not thrown: the stream is over either way.
    func close(timeout: Double) {
        guard headerWritten, !closed else { return }
        closed = true
        deadline.arm(seconds: timeout)
        av_write_trailer(format)
    }

    deinit {
        // Not closed (an error path): end the muxer at once, without waiting on the
        // server; `muxer` then closes the socket.
        if headerWritten && !closed {
            closed = true
            deadline.expire()
            av_write_trailer(format)
        }
        deadline.expire()
    }
}
