import Foundation
import Glibc
import Testing

extension EndToEndTests {
    /// `--camera none`: a sound recording, an M4A (AAC) or Ogg Opus file with no video
    /// stream, timed, limited, kept pending, saved, cut into segments and uploaded as a
    /// movie is.
    @Suite struct SoundRecordingEndToEndTests {
        static let start = ["start", "--camera", "none", "--mic", "test", "--quality", "low"]

        /// The decoded audio holds the test microphone's 1 kHz tone throughout: no quiet
        /// run longer than a millisecond between its first and last 100 ms.
        static func expectTone(_ file: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let samples = try Probe.decodedAudio(file)
            let inner = samples.dropFirst(4800).dropLast(4800)
            let peak = inner.map { abs(Int($0)) }.max() ?? 0
            var quiet = 0, longest = 0
            for sample in inner {
                quiet = abs(Int(sample)) < peak / 20 ? quiet + 1 : 0
                longest = max(longest, quiet)
            }
            #expect(peak > 1000 && longest < 48, "peak \(peak), \(longest) quiet samples in a row", sourceLocation: sourceLocation)
            let tone = Probe.dominantFrequency(Array(inner), rate: 48000)
            #expect(abs(tone.hertz - 1000) < 5, "\(tone)", sourceLocation: sourceLocation)
        }

        @Test func aSoundRecordingIsAnM4AWithOnlyAudioOfExactlyItsLength() throws {
            let home = try Home()
            let result = try VidrecProcess.run(Self.start + ["--max", "3", "--save"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("(low: sound only, aac 48000 Hz 1 ch 64 kb/s, m4a) from no camera (sound only) + test tone"),
                    "\(result.err)")
            #expect(result.err.contains("vidrec: reached maximum duration (3 s): 3.000 s of sound, "), "\(result.err)")
            #expect(!result.err.contains("frames"), "\(result.err)")
            let saved = result.out.trimmingCharacters(in: .newlines)
            #expect(saved.hasPrefix(home.album + "/vidrec-") && saved.hasSuffix(".m4a"), "\(saved)")
            let streams = try Probe.streams(saved)
            #expect(streams.map(\.kind) == ["audio"] && streams.first?.codec == "aac", "\(streams)")
            #expect(abs(try Probe.formatDuration(saved) - 3) < 0.001)
            // An M4A as players expect it: its brand says so, its index is at the front.
            let info = try Probe.json(["-show_format", saved])
            let tags = (info["format"] as? [String: Any])?["tags"] as? [String: Any]
            #expect(tags?["major_brand"] as? String == "M4A ", "\(tags ?? [:])")
            #expect(try Probe.topLevelBoxes(saved).prefix(2) == ["ftyp", "moov"])
            try Self.expectTone(saved)
            // Listed as sound, with no thumbnail.
            let list = try VidrecProcess.run(["list", "--json"], home: home.path)
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]])
            #expect(rows.count == 1 && rows.first?["kind"] as? String == "audio" && rows.first?["preset"] as? String == "low",
                    "\(rows)")
            #expect(rows.first?["thumbnail"] == nil)
            #expect(!FileManager.default.fileExists(atPath: home.album + "/.thumbnails"))
        }

        @Test func anOpusPresetGivesAnOggOpusFileWithItsTags() throws {
            let home = try Home()
            let preset = home.path + "/speech.json"
            try Data("""
                {"description": "Speech", "width": 640, "height": 360, "frameRate": 15, "container": "mp4",
                 "video": {"codec": "libx264", "speed": "veryfast", "crf": 28, "keyframeInterval": 15, "pixelFormat": "yuv420p"},
                 "audio": {"codec": "libopus", "sampleRate": 48000, "channels": 1, "bitRate": "32k"}}
                """.utf8).write(to: URL(fileURLWithPath: preset))
            let result = try VidrecProcess.run(["start", "--camera", "none", "--mic", "test", "--quality", preset, "--max", "2.5"],
                                               home: home.path)
            #expect(result.code == 0, "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".opus").first, "\(result.err)")
            let info = try Probe.json(["-show_format", "-show_streams", file])
            #expect((info["format"] as? [String: Any])?["format_name"] as? String == "ogg")
            #expect(try Probe.streams(file).map(\.codec) == ["opus"])
            // Exactly 2.5 s of sound once decoded (Ogg's pre-skip trimmed).
            let samples = try Probe.decodedAudio(file)
            #expect(samples.count == 120_000, "\(samples.count) samples")
            try Self.expectTone(file)
            let save = try VidrecProcess.run(["save", "--as", "memo"], home: home.path)
            #expect(save.code == 0 && save.out == home.album + "/memo.opus\n", "\(save.out)\(save.err)")
            let list = try VidrecProcess.run(["list", "--json"], home: home.path)
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(list.out.utf8)) as? [[String: Any]])
            #expect(rows.first?["preset"] as? String == "speech" && rows.first?["kind"] as? String == "audio", "\(rows)")
        }

        @Test func segmentsOfSoundFollowEachOtherToTheSample() throws {
            let home = try Home()
            let result = try VidrecProcess.run(Self.start + ["--segment", "2", "--max", "5", "--save"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            let saved = result.out.split(separator: "\n").map(String.init)
            try #require(saved.count == 3, "\(result.out)\n\(result.err)")
            #expect(saved.allSatisfy { $0.hasSuffix(".m4a") })
            let lengths = try saved.map(Probe.formatDuration)
            #expect(zip(lengths, [2.0, 2.0, 1.0]).allSatisfy { abs($0 - $1) < 0.001 }, "\(lengths)")
            // Played back to back, the tone runs on across each cut.
            var joined: [Int16] = []
            var cuts: [Int] = []
            for (file, length) in zip(saved, lengths) {
                let samples = try Probe.decodedAudio(file)
                joined += samples.prefix(Int((length * 48000).rounded()))
                cuts.append(joined.count)
            }
            for cut in cuts.dropLast() {
                #expect(abs(Probe.toneJump(joined, across: cut)) < 0.5, "the tone jumps at sample \(cut)")
            }
        }

        @Test func aTriggerKeepsTheSoundFromBeforeIt() throws {
            let home = try Home()
            let recording = try VidrecProcess(Self.start + ["--pre", "1", "--post", "1", "--max", "5", "--save"], home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            try recording.waitUntilRecorded(2)
            let trigger = try VidrecProcess.run(["trigger"], home: home.path)
            #expect(trigger.code == 0, "\(trigger.err)")
            let ended = recording.wait()
            #expect(ended.code == 0 && ended.err.contains("vidrec: 1 event, "), "\(ended.err)")
            let saved = ended.out.split(separator: "\n").map(String.init)
            try #require(saved.count == 1, "\(ended.out)")
            #expect(saved[0].hasSuffix(".m4a"))
            // The second before the trigger and the second after (an event starts on an
            // AAC packet: at most one more, 21 ms).
            let length = try Probe.formatDuration(saved[0])
            #expect(length >= 1.99 && length <= 2.05, "\(length) s")
            try Self.expectTone(saved[0])
        }

        @Test func aPausedStoppedSoundRecordingIsFinishedAndSaved() throws {
            let home = try Home()
            let recording = try VidrecProcess(Self.start, home: home.path)
            #expect(recording.waitForError(containing: "vidrec: recording "))
            try recording.waitUntilRecorded(1)
            #expect(try VidrecProcess.run(["pause"], home: home.path).code == 0)
            #expect(recording.waitForError(containing: "vidrec: paused\n"))
            let paused = try #require(try Poll.until {
                let shown = try VidrecProcess.run(["status"], home: home.path)
                return shown.out.contains(": paused at ") ? shown.out : nil
            })
            #expect(!paused.contains("frames"), "\(paused)")
            #expect(try VidrecProcess.run(["resume"], home: home.path).code == 0)
            #expect(recording.waitForError(containing: "vidrec: resumed\n"))
            // Neither a photo nor another camera: a sound recording has no picture.
            let snap = try VidrecProcess.run(["switch", "--camera", "test"], home: home.path)
            #expect(snap.code == 64 && snap.err.contains("a sound recording has no camera to switch"), "\(snap.err)")
            // On a machine with no camera (CI's), a photo is refused with the reason.
            let cameras = (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?.filter { $0.hasPrefix("video") } ?? []
            if cameras.isEmpty {
                let photo = try VidrecProcess.run(["snap"], home: home.path)
                #expect(photo.code == 69 && photo.err.hasPrefix("Error: no camera found: no /dev/video* device can capture video; recording ")
                        && photo.err.contains(" records sound only (--camera none), so it has no picture to take a photo from; name a camera with --camera\n"),
                        "\(photo.err)")
            }
            try recording.waitUntilRecorded(2)
            #expect(try VidrecProcess.run(["stop"], home: home.path).code == 0)
            let ended = recording.wait()
            #expect(ended.code == 0, "\(ended.err)")
            #expect(ended.err.contains("vidrec: stopped: ") && ended.err.contains(" s of sound, ")
                    && ended.err.contains(" s left out while paused, "), "\(ended.err)")
            let length = try #require(ended.err.firstMatch(of: /stopped: (\d+\.\d+) s of sound/).flatMap { Double($0.1) })
            let file = try #require(home.files(in: home.pending, ending: ".m4a").first)
            #expect(abs(try Probe.formatDuration(file) - length) < 0.001)
            try Self.expectTone(file)
            let sidecar = try home.sidecar()
            #expect(sidecar["state"] as? String == "finished" && sidecar["container"] as? String == "m4a")
            #expect(sidecar["videoFrames"] == nil && sidecar["frameRate"] == nil, "\(sidecar)")
            let save = try VidrecProcess.run(["save"], home: home.path)
            #expect(save.code == 0 && save.out.hasSuffix(".m4a\n"), "\(save.err)")
        }

        @Test func killNineLeavesASoundFileThatSavePlaysWhole() throws {
            let home = try Home()
            let child = try VidrecProcess(Self.start, home: home.path)
            #expect(child.waitForError(containing: "vidrec: recording"))
            let recorded = try #require(try child.waitUntilRecorded(2))
            child.signal(SIGKILL)
            _ = child.wait()
            let partial = try #require(home.files(in: home.pending, ending: ".partial.m4a").first)
            #expect(try home.pendingRows().first?["state"] as? String == "interrupted")
            let save = try VidrecProcess.run(["save"], home: home.path)
            #expect(save.code == 0, "\(save.err)")
            let saved = save.out.trimmingCharacters(in: .newlines)
            #expect(!FileManager.default.fileExists(atPath: partial))
            #expect(try Probe.topLevelBoxes(saved).prefix(2) == ["ftyp", "moov"])
            let length = try Probe.formatDuration(saved)
            #expect(length >= recorded - 1, "plays \(length) s of \(recorded) s")
            try Self.expectTone(saved)
        }

        @Test func theFileSizeLimitEndsASoundRecordingBelowIt() throws {
            let home = try Home()
            let result = try VidrecProcess.run(Self.start + ["--max-size", "100K"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("vidrec: reached maximum file size (100 KB): "), "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".m4a").first)
            let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
            #expect(size <= 100_000 && size > 50_000, "\(size) bytes")
        }

        @Test func aSavedSoundSegmentIsUploaded() throws {
            try #require(S3Server.isInstalled, "moto or rclone is missing: run scripts/install-deps --servers")
            let home = try Home()
            let server = try S3Server(folder: home.path + "/s3")
            let environment = ["RCLONE_CONFIG": server.rcloneConfig, "AWS_CA_BUNDLE": "/etc/ssl/certs/ca-certificates.crt"]
            let result = try VidrecProcess.run(Self.start + ["--max", "2", "--save", "--upload", "s3test:memos"],
                                               home: home.path, environment: environment)
            #expect(result.code == 0, "\(result.err)")
            let saved = result.out.trimmingCharacters(in: .newlines)
            let name = (saved as NSString).lastPathComponent
            let object = try #require(server.objects("memos")[name], "\(server.objects("memos").keys.sorted())")
            #expect(object.md5 == (try UploadEndToEndTests.md5(saved)))
        }

        @Test(arguments: [
            (["--mic", "none"], "'--mic none' cannot be used with '--camera none, which records sound only: there would be nothing to record'"),
            (["--mic", "test", "--snap-every", "5"], "'--snap-every <duration>' cannot be used with '--camera none, which records sound only'"),
            (["--mic", "test", "--rotate", "90"], "'--rotate <degrees>' cannot be used with '--camera none, which records sound only'"),
            (["--mic", "test", "--live", "rtmp://127.0.0.1:9/live/x"], "'--live <url>' cannot be used with '--camera none, which records sound only'"),
        ])
        func whatNeedsAPictureIsRefusedAndLeavesNothing(extra: [String], message: String) throws {
            let home = try Home()
            let result = try VidrecProcess.run(["start", "--camera", "none", "--quality", "low", "--max", "1"] + extra, home: home.path)
            #expect(result.code == 64, "\(result.code): \(result.err)")
            #expect(result.err.contains(message), "\(result.err)")
            #expect(home.files(in: home.pending, ending: "").isEmpty)
        }
    }
}
