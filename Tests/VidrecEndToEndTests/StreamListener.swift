import Foundation
import Glibc
import Testing

/// A one-client receiver on 127.0.0.1 that writes what it gets to a file: SRT through
/// `srt-live-transmit` (Debian's srt-tools) into an MPEG-TS file, or RTSP through
/// FFmpeg's own RTSP server (`-rtsp_flags listen`) into a list of packets, one line per
/// packet: `stream,size`. The list is ffprobe's, which shows every packet the server
/// demuxes: ffmpeg 7.1's `-c copy` from such an input muxes its video and none of its
/// audio (139 AAC packets read, 0 written, from ffmpeg's own publisher too), where
/// ffmpeg 5.1 wrote both.
final class StreamListener {
    enum Kind { case srt, rtsp }

    let kind: Kind
    let port: Int
    let output: String
    private let process = Process()
    private var signaller: ChildSignal?

    /// Whether the receiving tool is installed (`scripts/install-deps`).
    static func isInstalled(_ kind: Kind) -> Bool {
        FileManager.default.isExecutableFile(atPath: kind == .srt ? "/usr/bin/srt-live-transmit" : "/usr/bin/ffprobe")
    }

    /// Starts the receiver, writing into `folder`, and waits until it listens.
    init(_ kind: Kind, folder: String) throws {
        self.kind = kind
        port = LocalPort.free(kind == .srt ? Int32(SOCK_DGRAM.rawValue) : Int32(SOCK_STREAM.rawValue))
        switch kind {
        case .srt:
            output = folder + "/received.ts"
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/srt-live-transmit")
            process.arguments = ["-q", "-a:no", "srt://127.0.0.1:\(port)?mode=listener", "file://con"]
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        case .rtsp:
            output = folder + "/received.csv"
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
            process.arguments = ["-v", "error", "-rtsp_flags", "listen", "-timeout", "120",
                                 "-i", "rtsp://127.0.0.1:\(port)/live/cam", "-show_entries", "packet=stream_index,size",
                                 "-of", "csv=p=0"]
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        }
        process.standardInput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        signaller = ChildSignal(process)
        let listening = Poll.until { LocalPort.isListening(port, udp: kind == .srt) ? true : (process.isRunning ? nil : false) }
        try #require(listening == true, "the \(kind) receiver did not start")
    }

    /// The URL to publish to.
    var url: String {
        switch kind {
        case .srt: "srt://127.0.0.1:\(port)"
        case .rtsp: "rtsp://127.0.0.1:\(port)/live/cam"
        }
    }

    /// Waits for the receiver to end, as both do once the stream has ended
    /// (srt-live-transmit with `-a:no`), having written everything it got.
    func finish() {
        process.waitUntilExit()
    }

    deinit {
        signaller?.send(SIGKILL)
        process.waitUntilExit()
    }
}
