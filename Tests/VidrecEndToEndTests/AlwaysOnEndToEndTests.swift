import Foundation
import Glibc
import Testing

extension EndToEndTests {
    /// An always-on box's outputs at once (`--segment`, `--pre/--post`, `--live`): the
    /// segmented archive, the event files and the live stream from one recording and one
    /// encode, into nginx-rtmp on 127.0.0.1.
    @Suite struct AlwaysOnEndToEndTests {
        /// A pending file and what its sidecar says it is.
        struct PendingFile {
            var path: String
            var isEvent: Bool
        }

        /// The pending files, oldest first, each a segment or an event by its sidecar.
        static func pendingFiles(_ home: Home) throws -> [PendingFile] {
            try home.files(in: home.pending, ending: ".json").map { sidecar in
                let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sidecar))) as? [String: Any])
                let reason = try #require(json["endReason"] as? String, "\(sidecar) has no end reason")
                return PendingFile(path: String(sidecar.dropLast(".json".count)) + ".mp4", isEvent: reason.hasPrefix("event "))
            }
        }

        /// Where `part` starts in `whole`, if it is a run of it.
        static func position(of part: [Int], in whole: [Int]) -> Int? {
            guard !part.isEmpty, part.count <= whole.count else { return nil }
            return (0...(whole.count - part.count)).first { whole[$0..<($0 + part.count)].elementsEqual(part) }
        }

        /// Segments, events and the live stream for `seconds`, with a trigger at each of
        /// `moments` (by `vidrec trigger` and by SIGUSR1 in turn, as `--trigger motion`
        /// calls the same trigger): every segment holds its frames and its audio to the
        /// sample, back to back the recording; every event holds the segments' own
        /// packets from a keyframe before its trigger to after `--post`; the stream has
        /// every packet, with a keyframe at least once a second to join at.
        @Test(.serialized, arguments: [("encoded", 60, 10, [12.0, 30, 47]), ("copied", 10, 2, [4.0])])
        func segmentsEventsAndTheLiveStreamComeFromOneRecording(video: String, seconds: Int, segment: Int, moments: [Double]) throws {
            try #require(RTMPServer.isInstalled, "nginx and its RTMP module are missing: run scripts/install-deps")
            let home = try Home()
            let server = try RTMPServer(folder: home.path + "/nginx")
            let url = server.url("door")
            let camera = video == "copied" ? ["--camera", "test:h264", "--video", "copy"] : ["--camera", "test"]
            let recording = try VidrecProcess(["start"] + camera + ["--mic", "test", "--quality", "low", "--max", "\(seconds)",
                                                                    "--segment", "\(segment)", "--pre", "2", "--post", "2", "--live", url],
                                              home: home.path)
            #expect(recording.waitForError(containing: ": publishing\n"))
            var triggered: [Double] = []
            for (number, moment) in moments.enumerated() {
                let at = try #require(try recording.waitUntilRecorded(moment))
                triggered.append(at)
                if number.isMultiple(of: 2) {
                    let trigger = try VidrecProcess.run(["trigger"], home: home.path)
                    #expect(trigger.code == 0, "\(trigger.err)")
                } else {
                    recording.signal(SIGUSR1)
                }
                #expect(recording.waitForError(containing: "vidrec: event \(number + 1) closed: "))
            }
            let ended = recording.wait()
            try #require(ended.code == 0, "\(ended.err)")
            #expect(ended.err.contains("vidrec: \(seconds / segment) segments, "), "\(ended.err)")
            #expect(ended.err.contains("vidrec: \(moments.count) event\(moments.count == 1 ? "" : "s"), "), "\(ended.err)")
            #expect(ended.err.contains("vidrec: live stream \(url): sent \(seconds).0 s of video\n"), "\(ended.err)")
            try server.waitUntilClientsLeft()
            server.stop()

            let files = try Self.pendingFiles(home)
            let segments = files.filter { !$0.isEvent }.map(\.path), events = files.filter(\.isEvent).map(\.path)
            try #require(segments.count == seconds / segment && events.count == moments.count, "\(files.map(\.path))")
            // The segments: each its frames and its audio to the sample, the tone unbroken across the cuts.
            var samples: [Int16] = []
            for file in segments {
                #expect(try Probe.decodedFrameCount(file) == 15 * segment, "\(file)")
                let audio = try SegmentEndToEndTests.statedLength(file, stream: "a")
                #expect(audio == 48_000 * segment, "\(file): \(audio) samples")
                samples += try Probe.decodedAudio(file).prefix(audio)
            }
            let jumps = (1..<segments.count).map { Probe.toneJump(samples, across: $0 * 48_000 * segment) }
            #expect(jumps.allSatisfy { $0 < 0.5 }, "the tone's jump at each cut, in samples: \(jumps)")
            // The stream: the segments' packets, one encode, and a keyframe every second to join at.
            let sent = try segments.flatMap { try LiveStreamEndToEndTests.packetSizes($0, stream: "v") }
            #expect(sent.count == 15 * seconds)
            let received = try #require(server.recordings.first, "nginx recorded nothing")
            #expect(try LiveStreamEndToEndTests.packetSizes(received, stream: "v") == sent)
            let joins = try Probe.keyframePositions(received)
            #expect(joins.first == 0 && zip(joins, joins.dropFirst() + [sent.count]).allSatisfy { $1 - $0 <= 15 }, "keyframes at \(joins)")
            if video == "encoded" {
                let numbers = try Probe.frameNumbers(received, width: 640, height: 360, everyPacket: true)
                #expect(numbers == Array(0..<(15 * seconds)), "the stream's frames")
            }
            // The events: the segments' own packets, from a keyframe before the trigger to after --post.
            for (file, moment) in zip(events, triggered) {
                try Self.expectEvent(file, triggeredAt: moment, sent: sent, joins: joins)
            }
        }

        /// Event file `file`, triggered at `moment` (seconds): a run of the segments'
        /// video packets (`sent`) from a keyframe (one of `joins`) before the trigger to
        /// after `--post`, its sound as long as its picture and the test tone.
        static func expectEvent(_ file: String, triggeredAt moment: Double, sent: [Int], joins: [Int]) throws {
            let kept = try LiveStreamEndToEndTests.packetSizes(file, stream: "v")
            let first = try #require(Self.position(of: kept, in: sent), "\(file): its \(kept.count) packets are the segments'")
            #expect(joins.contains(first), "\(file) starts at frame \(first), a keyframe")
            #expect(Double(first) / 15 <= moment - 0.5, "\(file) starts at \(Double(first) / 15) s, the trigger came after \(moment) s")
            #expect(Double(first + kept.count) / 15 >= moment + 0.9, "\(file) ends at \(Double(first + kept.count) / 15) s")
            let streams = try Probe.streams(file)
            let video = try #require(streams.first { $0.kind == "video" }?.duration)
            let audio = try #require(streams.first { $0.kind == "audio" }?.duration)
            #expect(abs(video - audio) < 0.05, "\(file): video \(video) s, audio \(audio) s")
            // The tone from the first sample: the file begins with the AAC packets a
            // decoder needs before its start (EventFileOutputTests checks the phase).
            let tone = Probe.dominantFrequency(try Probe.decodedAudio(file), rate: 48_000)
            #expect(abs(tone.hertz - 1000) < 20 && tone.share > 0.5, "\(file): the tone, \(tone)")
        }
    }
}
