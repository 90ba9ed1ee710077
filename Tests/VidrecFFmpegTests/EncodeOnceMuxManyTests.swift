import Foundation
import Synchronization
import Testing
import VidrecFFmpeg
import VidrecMedia

/// One encoder feeds every output: the file and the outputs beside it carry the same
/// packets, and an output that stalls or fails holds back neither the encoder nor the
/// file.
@Suite(.timeLimit(.minutes(2))) struct EncodeOnceMuxManyTests {
    static let width = 160, height = 120, rate = 15

    static func settings(container: Container, audio: Bool, speed: String = "ultrafast") -> MovieSettings {
        MovieSettings(
            container: container,
            video: VideoEncoding(codec: "libx264", width: width, height: height, frameRate: Rational(Int64(rate)),
                                 pixelFormat: "yuv420p", speed: speed, crf: 28, bitRate: nil, keyframeInterval: 10),
            audio: audio ? AudioEncoding(codec: "aac", sampleRate: 48000, channels: 1, bitRate: 64_000) : nil)
    }

    static func frame(_ index: Int) -> VideoFrame {
        TestFrames.ramp(index, width: width, height: height, divisor: 3, step: 11)
    }

    /// One frame's worth (1/15 s) of a 440 Hz tone, 16-bit mono at 48 kHz.
    static func tone(_ index: Int) -> AudioChunk {
        let frames = 48000 / rate
        let buffer = FrameBuffer(count: frames * 2)
        let samples = buffer.bytes.assumingMemoryBound(to: Int16.self)
        for i in 0..<frames {
            let t = Double(index * frames + i) / 48000
            samples[i] = Int16(8000 * sin(2 * .pi * 440 * t))
        }
        return AudioChunk(format: AudioFormat(sampleFormat: .s16, sampleRate: 48000, channels: 1), buffer: buffer,
                          frameCount: frames, captureTime: 0)
    }

    static func folder() throws -> String {
        let folder = NSTemporaryDirectory() + "vidrec-muxmany-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// ffprobe's list of packet sizes of one stream (`v` or `a`), as the file holds them.
    ///
    /// `-ignore_editlist`: the MP4 demuxer of FFmpeg 7.1 leaves out the packets its edit
    /// list starts after (AAC's first, priming, packet), which FFmpeg 5.1 listed; the
    /// file holds them either way.
    static func packetSizes(_ file: String, stream: String) throws -> [Int] {
        try FFmpegTool.text("ffprobe", ["-v", "error", "-ignore_editlist", "1", "-select_streams", "\(stream):0",
                                        "-show_entries", "packet=size", "-of", "csv=p=0", file])
            .split(separator: "\n").compactMap { Int($0) }
    }

    @Test func oneEncodingFeedsTheFileAndAnOutputBesideItWithTheSamePackets() throws {
        FFmpegLog.configure(level: nil)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // B-frames (veryfast), so that the packets are reordered and carry decode times.
        let settings = Self.settings(container: .mp4, audio: true, speed: "veryfast")
        let encoder = try MovieEncoder(settings: settings, for: [.mp4, .mkv])
        let mp4 = folder + "/movie.mp4", mkv = folder + "/beside.mkv"
        encoder.connect(try MovieFileOutput(path: mp4, container: .mp4, streams: encoder.streams),
                        policy: .movieFile, threadName: "test.file")
        // Beside the file, with a queue that holds all 3 s: the frames are given at once,
        // and a busy machine may leave its thread waiting that long (the 2-s policy then
        // drops, as the stalled-output test shows).
        var beside = PacketPolicy.sideOutput
        beside.backlogSeconds = 10
        encoder.connect(try MovieFileOutput(path: mkv, container: .mkv, streams: encoder.streams),
                        policy: beside, threadName: "test.beside")
        for index in 0..<45 {
            try encoder.appendVideo(Self.frame(index), frameIndex: Int64(index))
            try encoder.appendAudio(Self.tone(index))
        }
        try encoder.finish()
        #expect(encoder.lostOutputs.isEmpty)
        #expect(encoder.droppedPackets.values.allSatisfy { $0 == 0 })

        let video = try Self.packetSizes(mp4, stream: "v"), audio = try Self.packetSizes(mp4, stream: "a")
        #expect(video.count == 45)
        #expect(audio.count >= 45 * 3200 / 1024)
        // The same bytes: one encoding, muxed twice.
        #expect(try Self.packetSizes(mkv, stream: "v") == video)
        let besideAudio = try Self.packetSizes(mkv, stream: "a")
        #expect(besideAudio == audio, "MKV \(besideAudio.count) audio packets \(besideAudio.prefix(4))…\(besideAudio.suffix(4)), MP4 \(audio.count) \(audio.prefix(4))…\(audio.suffix(4))")
        let info = try MovieProbe().inspect(mkv)
        #expect(info.streams.map(\.codec).sorted() == ["aac", "h264"])
        #expect(abs(info.playableDuration - 3.0) < 0.1, "\(info.playableDuration) s")
    }

    @Test func aStalledOutputBesideTheFileDropsVideoUntilAKeyframeAndHoldsBackNothing() throws {
        FFmpegLog.configure(level: nil)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let settings = Self.settings(container: .mp4, audio: true)
        let encoder = try MovieEncoder(settings: settings, for: [.mp4])
        let mp4 = folder + "/movie.mp4"
        encoder.connect(try MovieFileOutput(path: mp4, container: .mp4, streams: encoder.streams),
                        policy: .movieFile, threadName: "test.file")
        let stalled = PacketLog("stalled stream", stallAfter: 1)
        encoder.connect(stalled, policy: PacketPolicy(backlogSeconds: 0.5, backlogBytes: 1 << 20, isEssential: false),
                        threadName: "test.stalled")
        // Every append returns while the output beside the file is stalled: the encoder
        // is not held back (a hang here fails the suite's time limit).
        for index in 0..<90 {
            try encoder.appendVideo(Self.frame(index), frameIndex: Int64(index))
            try encoder.appendAudio(Self.tone(index))
        }
        stalled.release()
        try encoder.finish()

        #expect(try Self.packetSizes(mp4, stream: "v").count == 90)
        let received = stalled.packets.filter { $0.kind == .video }
        let dropped = try #require(encoder.droppedPackets["stalled stream"])
        #expect(dropped > 0, "a half-second backlog held six seconds of video")
        #expect(Int64(received.count) + dropped == 90)
        #expect(stalled.queueDrops == dropped, "the output is told what its queue dropped, for its summary")
        // What it did send decodes: after every gap, it starts again at a keyframe.
        for (previous, packet) in zip(received, received.dropFirst()) where packet.time != previous.time + 1 {
            #expect(packet.isKeyframe, "frame \(packet.time) follows \(previous.time) without being a keyframe")
        }
        // Audio is never dropped.
        let fileAudio = try Self.packetSizes(mp4, stream: "a")
        #expect(stalled.packets.filter { $0.kind == .audio }.count == fileAudio.count, "\(fileAudio.prefix(4))…\(fileAudio.suffix(4))")
    }

    @Test func anOutputBesideTheFileThatFailsIsLeftBehindAndTheFileIsWhole() throws {
        FFmpegLog.configure(level: nil)
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let encoder = try MovieEncoder(settings: Self.settings(container: .mp4, audio: false), for: [.mp4])
        let mp4 = folder + "/movie.mp4"
        encoder.connect(try MovieFileOutput(path: mp4, container: .mp4, streams: encoder.streams),
                        policy: .movieFile, threadName: "test.file")
        let failing = PacketLog("failing stream", failAt: 5)
        encoder.connect(failing, policy: .sideOutput, threadName: "test.failing")
        for index in 0..<30 { try encoder.appendVideo(Self.frame(index), frameIndex: Int64(index)) }
        try encoder.finish()
        #expect(encoder.lostOutputs == ["failing stream: connection reset"])
        #expect(failing.packets.count == 5 && failing.finished)
        #expect(try Self.packetSizes(mp4, stream: "v").count == 30)
    }

    @Test func anEssentialOutputThatFailsEndsTheEncoding() throws {
        FFmpegLog.configure(level: nil)
        let encoder = try MovieEncoder(settings: Self.settings(container: .mp4, audio: false), for: [.mp4])
        let failing = PacketLog("failing file", failAt: 3)
        encoder.connect(failing, policy: .movieFile, threadName: "test.failing")
        // The failure reaches the encoder from the output's thread: from an append once
        // it has happened, and from finish() at the latest, which still closes the output.
        var thrown: (any Error)?
        do {
            for index in 0..<60 { try encoder.appendVideo(Self.frame(index), frameIndex: Int64(index)) }
        } catch {
            thrown = error
        }
        do { try encoder.finish() } catch { thrown = thrown ?? error }
        #expect(thrown is PacketLog.Failure)
        #expect(failing.packets.count == 3 && failing.finished)
    }
}

/// A packet output that records what it is given, and can stall (until released) or
/// fail part-way, standing in for a network stream.
final class PacketLog: PacketOutput, @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible { var description: String { "connection reset" } }
    struct Entry: Sendable { let kind: MediaKind; let time: Int64; let isKeyframe: Bool }

    let outputName: String
    private let state = Mutex<(packets: [Entry], finished: Bool)>(([], false))
    private let dropped = Mutex<Int64>(-1)
    private let stallAfter: Int?
    private let failAt: Int?
    private let gate = DispatchSemaphore(value: 0)
    private let arrival = NSCondition()

    /// - Parameters:
    ///   - stallAfter: after this many packets, the next write waits for ``release()``.
    ///   - failAt: the write of this many-th packet (0-based) throws ``Failure``.
    init(_ name: String, stallAfter: Int? = nil, failAt: Int? = nil) {
        outputName = name
        self.stallAfter = stallAfter
        self.failAt = failAt
    }

    func release() { gate.signal() }

    var packets: [Entry] { state.withLock { $0.packets } }

    /// Waits until `count` packets of `kind` have been written, for at most `timeout`
    /// seconds (a deadline for a failing test, not a pause).
    /// - Returns: whether they came.
    func waitFor(_ count: Int, of kind: MediaKind, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        arrival.lock()
        defer { arrival.unlock() }
        while state.withLock({ $0.packets.filter { $0.kind == kind }.count }) < count {
            if !arrival.wait(until: deadline) { return false }
        }
        return true
    }
    var finished: Bool { state.withLock { $0.finished } }
    var bytesWritten: Int64 { 0 }

    func write(_ packet: EncodedPacket) throws {
        let count = state.withLock { $0.packets.count }
        if count == stallAfter { gate.wait() }
        if count == failAt { throw Failure() }
        state.withLock {
            $0.packets.append(Entry(kind: packet.kind, time: packet.presentationTime, isKeyframe: packet.isKeyframe))
        }
        arrival.lock()
        arrival.broadcast()
        arrival.unlock()
    }

    /// What ``queueDropped(videoPackets:)`` said (-1: not called).
    var queueDrops: Int64 { dropped.withLock { $0 } }

    func queueDropped(videoPackets: Int64) { dropped.withLock { $0 = videoPackets } }

    func finish() throws {
        state.withLock { $0.finished = true }
    }
}
