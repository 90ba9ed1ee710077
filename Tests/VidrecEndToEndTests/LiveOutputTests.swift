import Foundation
import Synchronization
import Testing
import VidrecFFmpeg
import VidrecMedia

/// The live output in process: `MovieEncoder.recordingFile` with a `LiveStreamOutput`
/// beside the file, fed frames and sound directly (no camera, no recorder), publishing
/// to nginx's RTMP server on 127.0.0.1 (`RTMPServer`), or to a port nobody listens on.
@Suite(.timeLimit(.minutes(2))) struct LiveOutputTests {
    static let width = 160, height = 120, rate = 15, frames = 45

    static func settings(clockTrack: Bool = false) -> MovieSettings {
        var settings = MovieSettings(
            container: .mp4,
            video: VideoEncoding(codec: "libx264", width: width, height: height, frameRate: Rational(Int64(rate)),
                                 pixelFormat: "yuv420p", speed: "ultrafast", crf: 28, bitRate: nil, keyframeInterval: 15),
            audio: AudioEncoding(codec: "aac", sampleRate: 48000, channels: 1, bitRate: 64_000))
        settings.hasClockTrack = clockTrack
        return settings
    }

    /// Frame `index`: a grey picture whose level changes with the index (YU12).
    static func frame(_ index: Int) -> VideoFrame {
        let luma = width * height, chroma = luma / 4
        let buffer = FrameBuffer(count: luma + 2 * chroma)
        buffer.bytes.initializeMemory(as: UInt8.self, repeating: UInt8(16 + index * 4 % 200), count: luma)
        (buffer.bytes + luma).initializeMemory(as: UInt8.self, repeating: 128, count: 2 * chroma)
        return VideoFrame(pixelFormat: .yu12, width: width, height: height, buffer: buffer, byteCount: buffer.count,
                          strides: [width, width / 2, width / 2], captureTime: 0, sequence: UInt64(index))
    }

    /// Records `frames` frames with sound into `file`, with the live output to `url`
    /// beside it; returns what the live output reported.
    static func record(into file: String, live url: String, clockTrack: Bool = false) throws -> (encoder: MovieEncoder, reports: [String]) {
        FFmpegLog.configure(level: nil)
        let destination = try LiveDestination(parsing: url)
        let reports = Mutex<[String]>([])
        let encoder = try MovieEncoder.recordingFile(path: file, settings: settings(clockTrack: clockTrack), sideOutputs: [
            SideOutput(wantsGlobalHeader: destination.wantsGlobalHeader, threadName: "test.live") { streams in
                try LiveStreamOutput(destination: destination, streams: streams) { line in reports.withLock { $0.append(line) } }
            },
        ])
        let sound = AudioFormat(sampleFormat: .s16, sampleRate: 48000, channels: 1)
        for index in 0..<frames {
            try encoder.appendVideo(frame(index), frameIndex: Int64(index))
            try encoder.appendAudio(.silence(format: sound, frameCount: 48000 / rate, captureTime: 0))
        }
        try encoder.finish()
        return (encoder, reports.withLock { $0 })
    }

    /// ffprobe's packet sizes of the file's video stream.
    static func videoPacketSizes(_ file: String) throws -> [Int] {
        let probe = try Probe.tool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "packet=size",
                                               "-of", "csv=p=0", file])
        return String(decoding: probe, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
    }

    /// With a clock track the file has it too, and the stream, which cannot carry it,
    /// goes on without it.
    @Test(arguments: [false, true])
    func theServerGetsTheFilesOwnPacketsAndItsSound(clockTrack: Bool) throws {
        try #require(RTMPServer.isInstalled, "nginx and its RTMP module are missing: run scripts/install-deps")
        let home = try Home()
        let server = try RTMPServer(folder: home.path + "/nginx")
        let url = server.url("cam")
        let file = home.path + "/movie.mp4"
        // All 3 s are given at once: the output beside the file holds 2 s and then drops
        // video to the next keyframe, as a stream that cannot keep up does.
        let (encoder, reports) = try Self.record(into: file, live: url, clockTrack: clockTrack)
        try server.waitUntilClientsLeft()
        server.stop()
        #expect(encoder.lostOutputs.isEmpty, "\(encoder.lostOutputs)")
        #expect(reports.first == "live stream \(url): publishing", "\(reports)")
        let received = try #require(server.recordings.first, "nginx recorded nothing")
        #expect(try Probe.streams(received).map(\.codec) == ["h264", "aac"])
        #expect(try Probe.streams(file).map(\.codec) == ["h264", "aac"] + (clockTrack ? ["mov_text"] : []))
        let inFile = try Self.videoPacketSizes(file)
        #expect(inFile.count == Self.frames)
        // One encoding: what the server got is the file's own packets, in order, less a
        // run that was dropped whole from one keyframe to the next, which the closing
        // line counts.
        let sent = try Self.videoPacketSizes(received)
        let dropped = Self.frames - sent.count
        #expect(sent == Array(inFile.prefix(sent.count)) || dropped > 0 && Self.isFile(inFile, lessARunIn: sent), "\(sent) of \(inFile)")
        if dropped > 0 {
            #expect(reports.last?.contains("\(dropped) video packets dropped while the stream could not keep up") == true, "\(reports)")
        } else {
            #expect(reports.last == "live stream \(url): sent 3.0 s of video", "\(reports)")
        }
    }

    /// Whether `sent` is `file` with one run of packets left out.
    static func isFile(_ file: [Int], lessARunIn sent: [Int]) -> Bool {
        let head = zip(file, sent).prefix { $0 == $1 }.count
        let tail = zip(file.reversed(), sent.reversed()).prefix { $0 == $1 }.count
        return head + tail >= sent.count
    }

    @Test func withNoServerTheFileLosesNothingAndTheStreamSaysWhy() throws {
        let home = try Home()
        let file = home.path + "/movie.mp4"
        let url = "rtmp://127.0.0.1:\(LocalPort.free())/live/cam"
        let (encoder, reports) = try Self.record(into: file, live: url)
        #expect(encoder.lostOutputs.isEmpty, "the stream never fails the recording")
        #expect(try Self.videoPacketSizes(file).count == Self.frames)
        #expect(reports.contains { $0.hasPrefix("live stream \(url): cannot connect") }, "\(reports)")
        #expect(reports.last?.hasPrefix("live stream \(url): never connected") == true, "\(reports)")
    }

    @Test func aStreamWithoutVideoIsRefusedWithTheFix() throws {
        var settings = Self.settings()
        settings.video.isRecorded = false
        let destination = try LiveDestination(parsing: "rtmp://127.0.0.1/live/cam")
        let encoder = try MovieEncoder(settings: settings, globalHeader: true)
        let error = #expect(throws: FFmpegError.self) {
            _ = try LiveStreamOutput(destination: destination, streams: encoder.streams) { _ in }
        }
        #expect(error?.kind == .unsupportedSettings)
        #expect(error.map { "\($0)" }?.contains("leave out --live or give a camera") == true, "\(String(describing: error))")
    }
}
