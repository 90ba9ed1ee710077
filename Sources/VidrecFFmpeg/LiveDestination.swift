import CFFmpeg
import VidrecMedia
import VidrecSystem

/// Where `--live` publishes: a media server's URL, and the libavformat muxer its
/// protocol carries (FLV for RTMP, MPEG-TS for SRT, RTP for RTSP).
public struct LiveDestination: Sendable, Equatable, CustomStringConvertible {
    /// The protocols vidrec publishes to.
    public enum Scheme: String, Sendable, CaseIterable {
        /// RTMP (nginx-rtmp, MediaMTX, YouTube, Twitch): FLV over TCP.
        case rtmp
        /// RTMP over TLS.
        case rtmps
        /// SRT (srt-live-transmit, MediaMTX): MPEG-TS over UDP with retransmission.
        case srt
        /// RTSP in record mode (MediaMTX): RTP, over TCP so that no packet is lost.
        case rtsp
    }

    /// The URL exactly as given, for libavformat.
    public let url: String
    /// Its protocol.
    public let scheme: Scheme

    /// Checks `text`: a URL with one of ``Scheme``'s protocols and a host.
    ///
    /// - Throws: a ``LiveDestination/Problem`` saying what is wrong, for a usage error.
    public init(parsing text: String) throws(Problem) {
        guard let separator = text.range(of: "://") else { throw .notAURL }
        let schemeText = text[..<separator.lowerBound].lowercased()
        guard let scheme = Scheme(rawValue: schemeText) else { throw .unsupportedScheme(schemeText) }
        let rest = text[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        guard !host.isEmpty, !host.hasPrefix(":") else { throw .noHost }
        if scheme == .rtmp || scheme == .rtmps {
            // rtmp://host/app/stream: nginx-rtmp and every service want both.
            let path = rest.dropFirst(authority.count).prefix { $0 != "?" }
            guard path.split(separator: "/").count >= 2 else { throw .noStreamName }
        }
        url = text
        self.scheme = scheme
    }

    /// Why a `--live` URL was refused.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case notAURL
        case unsupportedScheme(String)
        case noHost
        case noStreamName

        public var description: String {
            switch self {
            case .notAURL: "give a URL such as rtmp://host/live/stream, srt://host:port or rtsp://host:port/path"
            case .unsupportedScheme(let scheme): "vidrec publishes to rtmp://, rtmps://, srt:// and rtsp:// servers, not \(scheme)://"
            case .noHost: "the URL names no server; give one such as rtmp://127.0.0.1/live/stream"
            case .noStreamName: "an RTMP URL names an application and a stream: rtmp://host[:port]/app/stream"
            }
        }
    }

    /// The libavformat muxer the protocol carries.
    var muxerName: String {
        switch scheme {
        case .rtmp, .rtmps: "flv"
        case .srt: "mpegts"
        case .rtsp: "rtsp"
        }
    }

    /// Whether the muxer opens the connection itself (RTSP) instead of writing to an
    /// `AVIOContext` opened for it.
    var muxerOpensConnection: Bool { scheme == .rtsp }

    /// Muxer options: RTSP over TCP (RTP over UDP would lose packets on a busy link
    /// without saying so).
    var muxerOptions: [(String, String)] {
        scheme == .rtsp ? [("rtsp_transport", "tcp")] : []
    }

    /// Protocol options: SRT waits up to two seconds at the end for what the server has
    /// not acknowledged (in live mode it would drop it at once, and the stream would lose
    /// its last second).
    var protocolOptions: [(String, String)] {
        scheme == .srt ? [("linger", "2")] : []
    }

    /// Whether the muxer wants the codec headers in the stream parameters (FLV and RTSP
    /// do; MPEG-TS repeats them in the stream).
    public var wantsGlobalHeader: Bool {
        guard let format = av_guess_format(muxerName, nil, nil) else { return true }
        return format.pointee.flags & AVFMT_GLOBALHEADER != 0
    }

    /// The URL for messages and logs, with secrets shortened: a password, the values of
    /// query parameters (SRT's `passphrase`), and an RTMP stream key longer than eight
    /// characters (services such as YouTube and Twitch use the key as the password).
    public var description: String { LiveDestination.redacted(url) }

    /// `text`, a URL that may not have parsed, with its secrets shortened as
    /// ``description`` does: for messages about a URL that was refused.
    public static func redacted(_ text: String) -> String {
        // Read scalar by scalar, as libavformat reads bytes: an `@` joined to a combining
        // mark is one Swift `Character`, but still an `@` to the server.
        typealias Scalars = Substring.UnicodeScalarView
        func string(_ scalars: Scalars) -> String { String(String.UnicodeScalarView(scalars)) }
        func lastIndex(of scalar: Unicode.Scalar, in scalars: Scalars) -> Scalars.Index? { scalars.lastIndex(of: scalar) }
        let url = Substring(text).unicodeScalars
        guard let colon = url.firstIndex(of: ":"), string(url[colon...]).hasPrefix("://") else {
            // Not a URL: a `user:password@host` in it is still shortened.
            guard let at = lastIndex(of: "@", in: url) else { return text }
            return "…" + string(url[at...])
        }
        let restStart = url.index(colon, offsetBy: 3)
        let scheme = Scheme(rawValue: string(url[..<colon]).lowercased())
        var rest = url[restStart...]
        var query = ""
        if let mark = rest.firstIndex(of: "?") {
            let parameters = rest[rest.index(after: mark)...].split(separator: "&").map { parameter in
                parameter.split(separator: "=", maxSplits: 1).first.map { "\(string($0))=…" } ?? "…"
            }
            query = "?" + parameters.joined(separator: "&")
            rest = rest[..<mark]
        }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = string(rest[..<authorityEnd])
        var path = string(rest[authorityEnd...])
        let authorityScalars = rest[..<authorityEnd]
        if let at = lastIndex(of: "@", in: authorityScalars) {
            let user = authorityScalars[..<at].split(separator: ":", maxSplits: 1).first.map(string) ?? ""
            authority = "\(user):…@" + string(authorityScalars[authorityScalars.index(after: at)...])
        }
        let pathScalars = rest[authorityEnd...]
        if scheme == .rtmp || scheme == .rtmps || scheme == nil, let slash = lastIndex(of: "/", in: pathScalars) {
            let key = pathScalars[pathScalars.index(after: slash)...]
            if key.count > 8 { path = string(pathScalars[...slash]) + string(key.prefix(4)) + "…" }
        }
        return string(url[..<restStart]) + authority + path + query
    }

    /// Where the secrets ``redacted(_:)`` shortens are in `text`, as UTF-8 offsets: the
    /// password, the query's values and an RTMP stream key past its fourth character.
    /// What `--live` gave is overwritten there in the process's own argv.
    public static func secretOffsets(in text: String) -> [Range<Int>] {
        let bytes = Array(text.utf8)
        func firstIndex(of byte: Character, in range: Range<Int>) -> Int? { range.first { bytes[$0] == byte.asciiValue! } }
        func lastIndex(of byte: Character, in range: Range<Int>) -> Int? { range.last { bytes[$0] == byte.asciiValue! } }
        guard let colon = firstIndex(of: ":", in: 0..<bytes.count), bytes[colon...].starts(with: Array("://".utf8)) else {
            return lastIndex(of: "@", in: 0..<bytes.count).map { [0..<$0] } ?? []
        }
        var ranges: [Range<Int>] = []
        var end = bytes.count
        if let mark = firstIndex(of: "?", in: (colon + 3)..<bytes.count) {
            var start = mark + 1
            while start <= bytes.count {
                let stop = firstIndex(of: "&", in: start..<bytes.count) ?? bytes.count
                let valueStart = firstIndex(of: "=", in: start..<stop).map { $0 + 1 } ?? start
                if valueStart < stop { ranges.append(valueStart..<stop) }
                start = stop + 1
            }
            end = mark
        }
        let restStart = colon + 3
        let authorityEnd = firstIndex(of: "/", in: restStart..<end) ?? end
        if let at = lastIndex(of: "@", in: restStart..<authorityEnd) {
            let passwordStart = firstIndex(of: ":", in: restStart..<at).map { $0 + 1 } ?? restStart
            if passwordStart < at { ranges.append(passwordStart..<at) }
        }
        let scheme = Scheme(rawValue: String(decoding: bytes[..<colon], as: UTF8.self).lowercased())
        if scheme == .rtmp || scheme == .rtmps || scheme == nil, let slash = lastIndex(of: "/", in: authorityEnd..<end) {
            let key = String(decoding: bytes[(slash + 1)..<end], as: UTF8.self)
            if key.unicodeScalars.count > 8 {
                let kept = String(String.UnicodeScalarView(key.unicodeScalars.prefix(4))).utf8.count
                ranges.append((slash + 1 + kept)..<end)
            }
        }
        return ranges
    }
}

extension LiveDestination.Problem: ExitCoded {
    /// A `--live` URL vidrec cannot use is a usage error (the parser reports it).
    public var exitCode: ExitCode { .usage }
}
