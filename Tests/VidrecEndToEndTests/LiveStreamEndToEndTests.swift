import Foundation
import Glibc
import Testing

extension EndToEndTests {
    /// `--live`: the same encoded stream published to real servers on 127.0.0.1 (nginx
    /// with its RTMP module, srt-live-transmit, ffmpeg's RTSP server) while the file is
    /// recorded, and the file losing nothing when the server is gone, dies or hangs.
    @Suite struct LiveStreamEndToEndTests {
        static let start = ["start", "--camera", "test", "--mic", "test", "--quality", "low"]

        @Test func anRTMPServerGetsTheFilesOwnPacketsWithoutASecondEncode() throws {
            try #require(RTMPServer.isInstalled, "nginx and its RTMP module are missing: run scripts/install-deps")
            let home = try Home()
            let server = try RTMPServer(folder: home.path + "/nginx")
            let url = server.url("cam")
            let result = try VidrecProcess.run(Self.start + ["--max", "3", "--live", url], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("vidrec: live stream \(url): publishing\n"), "\(result.err)")
            #expect(result.err.contains("vidrec: live stream \(url): sent 3.0 s of video\n"), "\(result.err)")
            try server.waitUntilClientsLeft()
            server.stop()
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let received = try #require(server.recordings.first, "nginx recorded nothing")
            #expect(server.recordings.count == 1)
            #expect(try Probe.streams(received).map(\.codec) == ["h264", "aac"])
            // The same packets, byte for byte in size: one encode feeds both.
            let sent = try Self.packetSizes(file, stream: "v")
            #expect(sent.count == 45)
            #expect(try Self.packetSizes(received, stream: "v") == sent)
            #expect(try Probe.decodedFrameCount(received) == 45)
            // All of the audio, from the first frame on (the encoder holds video back
            // longer than audio; the stream still starts with the audio of its moment).
            let audio = try Probe.decodedAudio(received).count
            #expect(abs(audio - 3 * 48_000) <= 2048, "\(audio) samples")
        }

        /// Segments and the live stream from one encode: the server gets every segment's
        /// video packets as one stream, and its audio from an encoder that runs across
        /// the cuts, the tone unbroken, while each segment's audio still ends on its cut.
        @Test(arguments: ["encoded", "copied"])
        func segmentsAndTheLiveStreamComeFromOneVideoStream(video: String) throws {
            try #require(RTMPServer.isInstalled, "nginx and its RTMP module are missing: run scripts/install-deps")
            let home = try Home()
            let server = try RTMPServer(folder: home.path + "/nginx")
            let url = server.url("cam")
            let camera = video == "copied" ? ["--camera", "test:h264", "--video", "copy"] : ["--camera", "test"]
            let result = try VidrecProcess.run(["start"] + camera + ["--mic", "test", "--quality", "low", "--max", "5", "--segment", "2",
                                                                     "--live", url], home: home.path)
            try #require(result.code == 0, "\(result.err)")
            #expect(result.err.contains("vidrec: 3 segments, "), "\(result.err)")
            #expect(result.err.contains("vidrec: live stream \(url): sent 5.0 s of video\n"), "\(result.err)")
            try server.waitUntilClientsLeft()
            server.stop()
            let segments = try home.pendingRows().compactMap { $0["file"] as? String }
            try #require(segments.count == 3, "\(segments)")
            let received = try #require(server.recordings.first, "nginx recorded nothing")
            #expect(server.recordings.count == 1)
            let sent = try segments.flatMap { try Self.packetSizes($0, stream: "v") }
            #expect(sent.count == 75)
            #expect(try Self.packetSizes(received, stream: "v") == sent)
            let numbers = try Probe.frameNumbers(received, width: 640, height: 360, everyPacket: true)
            // (The copied test camera sends a loop of its compressed frames.)
            let loop = video == "copied" ? 2 * 15 : 75  // TestPatternCamera.compressedLoopSeconds at 15 fps
            #expect(numbers == (0..<75).map { $0 % loop }, "\(numbers)")
            let lengths = try segments.map { try SegmentEndToEndTests.statedLength($0, stream: "a") }
            #expect(lengths == [96000, 96000, 48000], "each segment's audio to its cut: \(lengths)")
            let audio = try Probe.decodedAudio(received)
            #expect(abs(audio.count - 5 * 48_000) <= 2048, "\(audio.count) samples")
            // (The stream's audio starts with its encoder's priming, which the decoder
            // gives out too.)
            let jumps = [96000, 192000].map { Probe.toneJump(audio, across: $0 + audio.count - 5 * 48_000) }
            #expect(jumps.allSatisfy { $0 < 0.5 }, "the tone's jump at each cut, in samples: \(jumps)")
        }

        /// A recording that waits for triggers streams all the time, between events too,
        /// and an event's file holds the packets the stream had.
        @Test func aRecordingThatWaitsForTriggersStreamsBetweenEvents() throws {
            try #require(RTMPServer.isInstalled, "nginx and its RTMP module are missing: run scripts/install-deps")
            let home = try Home()
            let server = try RTMPServer(folder: home.path + "/nginx")
            let url = server.url("cam")
            let child = try VidrecProcess(Self.start + ["--pre", "1", "--post", "1", "--max", "6", "--live", url], home: home.path)
            #expect(child.waitForError(containing: ": publishing\n"))
            try child.waitUntilRecorded(2.5)
            child.signal(SIGUSR1)
            let result = child.wait()
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("vidrec: 1 event, "), "\(result.err)")
            #expect(result.err.contains("vidrec: live stream \(url): sent 6.0 s of video\n"), "\(result.err)")
            try server.waitUntilClientsLeft()
            server.stop()
            let event = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let received = try #require(server.recordings.first, "nginx recorded nothing")
            let streamed = try Self.packetSizes(received, stream: "v")
            #expect(streamed.count == 90)
            #expect(try Probe.frameNumbers(received, width: 640, height: 360, everyPacket: true) == Array(0..<90))
            let kept = try Self.packetSizes(event, stream: "v")
            let first = try #require(try Probe.frameNumbers(event, width: 640, height: 360, everyPacket: true).first)
            #expect(kept.count >= 30 && Array(streamed[first..<min(90, first + kept.count)]) == kept,
                    "the event's \(kept.count) packets from frame \(first) are the stream's")
        }

        /// A camera's own H.264, copied (`--video copy`), goes to the server as it goes
        /// into the file: the camera's packets, the camera's profile.
        @Test func aCopiedCameraStreamIsPublishedAsTheFileHasIt() throws {
            try #require(RTMPServer.isInstalled, "nginx and its RTMP module are missing: run scripts/install-deps")
            let home = try Home()
            let server = try RTMPServer(folder: home.path + "/nginx")
            let url = server.url("cam")
            let result = try VidrecProcess.run(["start", "--camera", "test:h264", "--mic", "test", "--quality", "low", "--video", "copy",
                                                "--max", "3", "--live", url], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("→ copied"), "\(result.err)")
            #expect(result.err.contains("vidrec: live stream \(url): sent 3.0 s of video\n"), "\(result.err)")
            try server.waitUntilClientsLeft()
            server.stop()
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let received = try #require(server.recordings.first, "nginx recorded nothing")
            #expect(try Probe.videoProfile(received).contains("Baseline"), "the camera's own stream")
            let sent = try Self.packetSizes(file, stream: "v")
            #expect(sent.count == 45)
            #expect(try Self.packetSizes(received, stream: "v") == sent)
            #expect(try Probe.decodedFrameCount(received) == 45)
        }

        @Test func theFileLosesNothingWhenTheServerDiesAndTheStreamResumesWhenItReturns() throws {
            try #require(RTMPServer.isInstalled, "nginx and its RTMP module are missing: run scripts/install-deps")
            let home = try Home()
            let server = try RTMPServer(folder: home.path + "/nginx")
            let child = try VidrecProcess(Self.start + ["--live", server.url("cam")], home: home.path)
            #expect(child.waitForError(containing: ": publishing\n"))
            try child.waitUntilRecorded(1.5)
            server.kill()
            #expect(child.waitForError(containing: ": lost ("))
            try server.start()
            #expect(child.waitForError(containing: ": publishing again"))
            let resumed = try #require(try child.waitUntilRecorded(0))
            try child.waitUntilRecorded(resumed + 2)
            child.signal(SIGINT)
            let result = child.wait()
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("not sent (1 interruption)"), "\(result.err)")
            #expect(!result.err.contains("dropped"), "the file lost no frame: \(result.err)")

            // The file has every frame of the recording, and its streams end together.
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let frames = try #require(Self.framesInSummary(result.err))
            #expect(try Probe.decodedFrameCount(file) == frames)
            #expect(abs(Double(frames) / 15 - (try Probe.formatDuration(file))) < 0.1)
            try Probe.expectStreamsEndTogether(file, frameRate: 15)

            // The server got a stream before it died and another after it came back.
            try server.waitUntilClientsLeft()
            server.stop()
            let recordings = server.recordings
            try #require(recordings.count == 2, "\(recordings)")
            #expect(try Probe.streams(recordings[1]).map(\.codec) == ["h264", "aac"])
            #expect(try Probe.decodedFrameCount(recordings[1]) >= 30, "at least the 2 s after the return")
        }

        @Test func aServerThatIsNotThereCostsTheFileNothing() throws {
            let home = try Home()
            let url = "rtmp://127.0.0.1:\(LocalPort.free())/live/cam"
            let result = try VidrecProcess.run(Self.start + ["--max", "2", "--live", url], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("vidrec: live stream \(url): cannot connect (avio_open2: Connection refused); the file records on"),
                    "\(result.err)")
            #expect(result.err.contains("vidrec: live stream \(url): never connected"), "\(result.err)")
            // FFmpeg's own protocol messages are left out: vidrec said it once.
            #expect(!result.err.contains("[tcp @"), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            #expect(try Probe.decodedFrameCount(file) == 30)
        }

        /// A server that takes the connection and never answers: the stream gives up at
        /// its deadline instead of holding a thread in `send` for minutes, and the file
        /// is whole.
        @Test func aServerThatNeverAnswersIsGivenUpAndTheFileIsWhole() throws {
            let home = try Home()
            let server = SilentServer()
            let url = "rtmp://127.0.0.1:\(server.port)/live/cam"
            let result = try VidrecProcess.run(Self.start + ["--max", "2", "--live", url], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("cannot connect (no answer from the server within 5 s)"), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            #expect(try Probe.decodedFrameCount(file) == 30)
            try Probe.expectStreamsEndTogether(file, frameRate: 15)
        }

        @Test func anSRTListenerGetsTheWholeStream() throws {
            try #require(StreamListener.isInstalled(.srt), "srt-live-transmit is missing: run scripts/install-deps")
            let home = try Home()
            let listener = try StreamListener(.srt, folder: home.path)
            let result = try VidrecProcess.run(Self.start + ["--max", "3", "--live", listener.url], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("vidrec: live stream \(listener.url): sent 3.0 s of video\n"), "\(result.err)")
            listener.finish()
            #expect(try Probe.streams(listener.output).map(\.codec) == ["h264", "aac"])
            let frames = try Probe.decodedFrameCount(listener.output)
            if frames != 45 {
                // A known fault, seen only beside two busy loops in the Debian 13 stage
                // (libsrt 1.5.4), in about one run of five: the listener gets every frame
                // but the last one or two, with no drop logged, although vidrec has sent
                // them (its end line above). Not yet explained; anything more is a failure.
                withKnownIssue("SRT under load: the stream's last frames do not reach the listener", isIntermittent: true) {
                    #expect(frames == 45)
                }
                #expect(frames >= 43, "more than the stream's last two frames were lost: \(frames) of 45")
            }
        }

        @Test func anRTSPServerGetsTheWholeStream() throws {
            try #require(StreamListener.isInstalled(.rtsp), "ffprobe is missing: run scripts/install-deps")
            let home = try Home()
            let listener = try StreamListener(.rtsp, folder: home.path)
            let result = try VidrecProcess.run(Self.start + ["--max", "3", "--live", listener.url], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("vidrec: live stream \(listener.url): sent 3.0 s of video\n"), "\(result.err)")
            listener.finish()
            // One line per packet: "stream,size".
            let lines = try String(contentsOfFile: listener.output, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            #expect(lines.filter { $0.hasPrefix("0,") }.count == 45)
            // RTP repacks H.264 into NAL units, so the count is compared, not the sizes.
            #expect(try Self.packetSizes(file, stream: "v").count == 45)
            #expect(lines.filter { $0.hasPrefix("1,") }.count >= 140, "about 3 s of 1024-sample AAC packets")
        }

        /// Each packet's size in `stream` (`v` or `a`) of `file`, in order.
        static func packetSizes(_ file: String, stream: String) throws -> [Int] {
            let text = String(decoding: try Probe.tool("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries",
                                                                   "packet=size", "-of", "csv=p=0", file]), as: UTF8.self)
            return text.split(separator: "\n").compactMap { Int($0) }
        }

        /// The frame count that vidrec's closing line states (`stopped: 9.000 s, 135 frames, …`).
        static func framesInSummary(_ text: String) -> Int? {
            guard let match = text.range(of: #"s, (\d+) frames"#, options: .regularExpression) else { return nil }
            return Int(text[match].dropFirst(3).prefix { $0.isNumber })
        }
    }
}
