import CFFmpeg
import Foundation
import Testing
import VidrecMedia
@testable import VidrecFFmpeg

/// The events output of `--pre/--post`, in process: the encoder's packets for 6 s (15 fps,
/// a keyframe every 10 frames, a 440 Hz tone) are collected first, then written into an
/// `EventFileOutput` on the test's thread with triggers between them, so that where each
/// trigger falls is exact. Each event's file is finalized and read back with ffprobe.
@Suite(.timeLimit(.minutes(2))) struct EventFileOutputTests {
    /// Keeps every packet the encoder makes, in order.
    final class Collector: PacketOutput, @unchecked Sendable {
        // Only the output's thread writes; the test reads after the encoder finished.
        let outputName = "collector"
        var bytesWritten: Int64 = 0
        var packets: [EncodedPacket] = []
        func write(_ packet: EncodedPacket) throws { packets.append(packet) }
        func finish() throws {}
    }

    /// An event's file: where it starts in the recording (in frames), its frames, and
    /// the length of its sound (s).
    struct Event: Equatable {
        var firstFrame: Int
        var frames: Int
        var sound: Double
        /// How far the 440 Hz tone stands from where the recording had it, in samples,
        /// and how loud it is, over each of its first windows of 1200 samples (11 periods).
        var tone: [(shift: Double, amplitude: Double)] = []
        /// The clock track's cues (start and end, s), if it has one: its text samples, not
        /// the empty ones the muxer puts where a cue is still to come.
        var cues: [(start: Double, end: Double)] = []

        static func == (a: Event, b: Event) -> Bool { (a.firstFrame, a.frames, a.sound) == (b.firstFrame, b.frames, b.sound) }
    }

    /// The text samples of `file`'s clock track, as ffprobe reads them.
    static func cues(_ file: String) throws -> [(start: Double, end: Double)] {
        try FFmpegTool.text("ffprobe", ["-v", "error", "-select_streams", "s:0", "-show_entries", "packet=pts_time,duration_time,size",
                                        "-of", "csv=p=0", file]).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: ",").map { Double($0) }
            guard fields.count == 3, let start = fields[0], let length = fields[1], let size = fields[2], size > 2 else { return nil }
            return (start, start + length)
        }
    }

    /// The tone in the first windows of `samples`, sample 0 being `first` of the recording.
    static func tone(_ samples: [Int16], first: Int) -> [(shift: Double, amplitude: Double)] {
        let omega = 2 * Double.pi * 440 / 48000
        return stride(from: 0, to: min(samples.count - 1199, 3600), by: 1200).map { start in
            var (sine, cosine) = (0.0, 0.0)
            for i in start..<(start + 1200) {
                sine += Double(samples[i]) * sin(omega * Double(first + i))
                cosine += Double(samples[i]) * cos(omega * Double(first + i))
            }
            return (atan2(cosine, sine) / omega, 2 * (sine * sine + cosine * cosine).squareRoot() / 1200)
        }
    }

    /// The packet's time in the recording, in seconds.
    static func time(of packet: EncodedPacket) -> Double {
        Double(packet.presentationTime) * av_q2d(packet.stream.timeBase)
    }

    /// Writes 6 s of packets into an events output with `pre` and `post`, triggering
    /// just before the first video packet at or after each of `triggers` (seconds).
    static func events(pre: Double, post: Double, triggers: [Double], clockTrack: Bool = false) throws -> [Event] {
        FFmpegLog.configure(level: nil)
        let folder = try EncodeOnceMuxManyTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var settings = EncodeOnceMuxManyTests.settings(container: .mp4, audio: true)
        settings.hasClockTrack = clockTrack
        let encoder = try MovieEncoder(settings: settings, for: [.mp4])
        let collector = Collector()
        encoder.connect(collector, policy: .movieFile, threadName: "test.collect")
        for index in 0..<90 {
            try encoder.appendVideo(EncodeOnceMuxManyTests.frame(index), frameIndex: Int64(index))
            try encoder.appendAudio(EncodeOnceMuxManyTests.tone(index))
        }
        try encoder.finish()

        let sink = SegmentedFileOutputTests.FolderSink(folder: folder)
        let output = EventFileOutput(container: .mp4, streams: encoder.streams, pre: pre, post: post, sink: sink)
        var pending = triggers
        for packet in collector.packets {
            if packet.kind == .video, let next = pending.first, time(of: packet) >= next {
                output.trigger()
                pending.removeFirst()
            }
            try output.write(packet)
        }
        try output.finish()
        #expect(pending.isEmpty && sink.closed.allSatisfy(\.2), "every trigger given, every event closed well")
        return try zip(sink.opened, sink.closed).map { opened, closed in
            let video = try SegmentedFileOutputTests.videoPackets(closed.1)
            #expect(video.first?.key == true, "an event starts with a keyframe")
            let samples = try SegmentedFileOutputTests.statedLength(closed.1, stream: "a") ?? 0
            let tone = Self.tone(try SegmentedFileOutputTests.decodedSamples(closed.1), first: Int((opened.1 * 48000).rounded()))
            return Event(firstFrame: Int((opened.1 * 15).rounded()), frames: video.count, sound: Double(samples) / 48000, tone: tone,
                         cues: clockTrack ? try Self.cues(closed.1) : [])
        }
    }

    @Test func anEventHoldsWhatCameBeforeTheTriggerFromAKeyframeAndEndsAtTheFirstKeyframeAfterPost() throws {
        // Triggered at frame 45 (3.0 s), the newest frame then being 44: kept from the
        // keyframe at or before 44 - 15 (frame 20, 1.33 s), written up to 44 + 15 and
        // closed at the next keyframe (frame 60).
        let events = try Self.events(pre: 1, post: 1, triggers: [3.0])
        #expect(events.map(\.firstFrame) == [20] && events.map(\.frames) == [40], "\(events)")
        #expect(abs((events.first?.sound ?? 0) - 40.0 / 15) < 0.07, "the sound spans the pictures: \(events)")
    }

    @Test func aTriggerDuringAnEventExtendsIt() throws {
        // A second trigger at 3.5 s (newest frame 52) moves the end to 52 + 15: the
        // event closes at the keyframe at frame 70.
        let events = try Self.events(pre: 1, post: 1, triggers: [3.0, 3.5])
        #expect(events.map(\.firstFrame) == [20] && events.map(\.frames) == [50], "\(events)")
    }

    @Test func triggersFarApartMakeAnEventEach() throws {
        // At 1.0 s (newest 14): from keyframe 0 (pre 0.5 s reaches back to frame 6) to
        // the keyframe at 30 (14 + 7.5). At 4.5 s (newest 67): from keyframe 50 (59.5)
        // to 80 (74.5).
        let events = try Self.events(pre: 0.5, post: 0.5, triggers: [1.0, 4.5])
        #expect(events.map(\.firstFrame) == [0, 50] && events.map(\.frames) == [30, 30], "\(events)")
        for event in events {
            #expect(abs(event.sound - Double(event.frames) / 15) < 0.07, "the sound spans the pictures: \(events)")
        }
    }

    /// An event's sound is the recording's from its first sample: the packets a decoder
    /// needs before it are in the file, hidden by its edit list. Events that start at the
    /// recording's start, well inside it, and at the keyframe the one before ended at.
    @Test func anEventsSoundIsTheRecordingsFromItsFirstSample() throws {
        // At 1.0 s (newest 14): from keyframe 0 to 30 (14 + 7.5); at 2.4 s (newest 35):
        // from keyframe 30, where the first ended, to 50 (35 + 7.5); at 4.5 s: from 50.
        let events = try Self.events(pre: 0.5, post: 0.5, triggers: [1.0, 2.4, 4.5])
        #expect(events.map(\.firstFrame) == [0, 30, 50], "\(events)")
        for event in events {
            #expect(event.tone.count == 3 && event.tone.allSatisfy { abs($0.shift) < 0.5 && abs($0.amplitude - 8000) < 320 },
                    "the tone from the event's first sample, frame \(event.firstFrame): \(event.tone)")
            #expect(abs(event.sound - Double(event.frames) / 15) < 0.07, "the sound spans the pictures: \(events)")
        }
    }

    /// With a clock track, each event's track runs from its first picture to its last:
    /// the cue showing at the start is cut to begin there, the one showing at the end to
    /// end there, and the cues between follow each other (keyframes every 10 frames at
    /// 15 fps fall between the seconds).
    @Test func anEventsClockTrackRunsFromItsFirstPictureToItsLast() throws {
        let events = try Self.events(pre: 0.5, post: 0.5, triggers: [1.0, 4.5], clockTrack: true)
        #expect(events.map(\.firstFrame) == [0, 50], "\(events)")
        for event in events {
            let length = Double(event.frames) / 15
            #expect(event.cues.first?.start == 0 && abs((event.cues.last?.end ?? 0) - length) < 0.002, "\(length) s: \(event.cues)")
            #expect(zip(event.cues, event.cues.dropFirst()).allSatisfy { abs($0.end - $1.start) < 0.002 }, "\(event.cues)")
        }
    }
}
