import Foundation
import Glibc
import Testing

extension EndToEndTests {
    /// The real `vidrec` binary recording from the built-in test sources, with the files
    /// checked by FFmpeg's own ffprobe and ffmpeg. Serialized: each records in real time,
    /// and running them side by side on two cores would make the encoder drop frames.
    @Suite struct RecordingEndToEndTests {
        @Test func maxThreeSecondsAtThirtyFpsGivesExactlyNinetyFramesWithAToneAndIsPending() throws {
            let home = try Home()
            let result = try VidrecProcess.run(["start", "--camera", "test", "--mic", "test", "--quality", "640x480", "--max", "3"],
                                               home: home.path)
            #expect(result.code == 0, "\(result.err)")
            #expect(result.err.contains("reached maximum duration (3 s)"))
            #expect(!result.err.contains("\u{1B}"), "no control characters without a terminal")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            #expect(!file.contains(".partial."))

            let streams = try Probe.streams(file)
            #expect(streams.map(\.codec) == ["h264", "aac"])
            let video = streams[0], audio = streams[1]
            #expect(video.width == 640 && video.height == 480 && video.frameRate == "30/1")
            #expect(try Probe.decodedFrameCount(file) == 90)
            #expect(abs(try Probe.formatDuration(file) - 3.0) <= 1.0 / 30, "format duration within one frame of --max")
            #expect(video.startTime == 0 && audio.startTime == 0, "both streams start at t = 0")

            let samples = try Probe.decodedAudio(file)
            #expect(abs(samples.count - 144_000) <= 1024, "3 s of 48 kHz audio, within one AAC frame")
            // The microphone starts before the camera, so sound starts with the first
            // frame: no silence at the start, also when starting took long on a busy machine.
            let firstSound = Probe.firstSound(samples)
            #expect(firstSound <= 24, "sound starts \(firstSound) samples after the first frame")
            let tone = Probe.dominantFrequency(Array(samples[4800..<52800]), rate: 48000)
            #expect(abs(tone.hertz - 1000) < 2, "\(tone)")
            if tone.share <= 0.9 {
                // Say what broke the tone: where sound starts, silent blocks, phase jumps.
                let blocks = Probe.toneBlocks(samples, frequency: 1000, rate: 48000)
                let silent = blocks.indices.filter { blocks[$0].amplitude < 1000 }
                Issue.record("""
                    the 1 kHz tone holds \(tone.share) of the audio in 0.1…1.1 s (\(tone.hertz) Hz): sound from sample \(firstSound), \
                    silent 20-ms blocks \(silent), phase jumps at blocks \(Probe.phaseJumps(blocks)); \
                    sidecar \((try? home.sidecar()).map { "\($0)" } ?? "unreadable"); \(result.err)
                    """)
            }

            // The test camera numbers its frames: the last one is frame 89, the first 0.
            let last = try Probe.greyFrame(file, index: 89)
            #expect(last.count == 640 * 480)
            #expect(Probe.frameNumber(grey: last, width: 640, height: 480) == 89)
            #expect(Probe.frameNumber(grey: try Probe.greyFrame(file, index: 0), width: 640, height: 480) == 0)

            let json = try home.sidecar()
            #expect(json["state"] as? String == "finished")
            #expect(json["videoFrames"] as? Int == 90)
            #expect(json["preset"] as? String == "640x480")
        }

        @Test func finishedMoviesHaveTheirIndexFirstSoTheyOpenAndSeekAtOnce() throws {
            let home = try Home()
            let result = try VidrecProcess.run(["start", "--camera", "test", "--mic", "test", "--quality", "low", "--max", "2"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let boxes = try Probe.topLevelBoxes(file)
            #expect(boxes.prefix(2) == ["ftyp", "moov"], "moov before mdat: \(boxes)")
            #expect(!boxes.contains("moof"), "no fragments left in a finished movie")
            // The duration is in the header: ffprobe reports it without -count_frames.
            #expect(abs(try Probe.formatDuration(file) - 2.0) <= 1.0 / 15)
            #expect(try Probe.decodedFrameCount(file) == 30)
        }

        @Test func saveMovesTheRecordingIntoTheAlbumAndEmptiesPending() throws {
            let home = try Home()
            let start = try VidrecProcess.run(["start", "--camera", "test", "--mic", "none", "--quality", "low", "--max", "1"], home: home.path)
            #expect(start.code == 0, "\(start.err)")
            #expect(try Probe.streams(home.files(in: home.pending, ending: ".mp4")[0]).map(\.kind) == ["video"], "--mic none is video only")
            let save = try VidrecProcess.run(["save", "--as", "door"], home: home.path)
            #expect(save.code == 0, "\(save.err)")
            #expect(save.out == home.album + "/door.mp4\n")
            #expect(try Probe.decodedFrameCount(home.album + "/door.mp4") == 15)
            #expect(home.files(in: home.pending, ending: "").isEmpty, "pending is empty: \(home.files(in: home.pending, ending: ""))")
            let again = try VidrecProcess.run(["save"], home: home.path)
            #expect(again.code == 66)
        }

        @Test func startWithSaveCommitsToTheAlbumGivenByTheEnvironment() throws {
            let home = try Home()
            let album = home.path + "/elsewhere"
            let result = try VidrecProcess.run(["start", "--camera", "test", "--mic", "test", "--quality", "low", "--max", "1.5", "--save"],
                                               home: home.path, environment: ["VIDREC_ALBUM": album])
            #expect(result.code == 0, "\(result.err)")
            let saved = result.out.trimmingCharacters(in: .newlines)
            #expect(saved.hasPrefix(album + "/vidrec-") && saved.hasSuffix(".mp4"))
            #expect(try Probe.decodedFrameCount(saved) == 23, "round(1.5 × 15) frames")
            #expect(home.files(in: home.pending, ending: ".json").isEmpty)
        }

        @Test func killNineLeavesAPendingFileThatPlaysToWithinOneSecondOfTheKill() throws {
            let home = try Home()
            let child = try VidrecProcess(["start", "--camera", "test", "--mic", "test", "--quality", "640x480"], home: home.path)
            #expect(child.waitForError(containing: "vidrec: recording"))
            // At least this much had been recorded when the kill came.
            let recorded = try #require(try child.waitUntilRecorded(3))
            child.signal(SIGKILL)
            _ = child.wait()
            let partial = try #require(home.files(in: home.pending, ending: ".partial.mp4").first)
            let crashed = try Probe.streams(partial).map { "\($0.kind) \($0.duration ?? -1) s" }
            let rows = try home.pendingRows()
            #expect(rows.first?["state"] as? String == "interrupted")
            let playable = try #require(rows.first?["duration"] as? Double)
            #expect(playable >= recorded - 1.0, "plays \(playable) s of \(recorded) s")
            // FFmpeg itself decodes the crashed file.
            let frames = try Probe.decodedFrameCount(partial)
            #expect(Double(frames) >= (recorded - 1.0) * 30)

            // Saving recovers it into an ordinary movie.
            let save = try VidrecProcess.run(["save"], home: home.path)
            #expect(save.code == 0, "\(save.err)")
            let saved = save.out.trimmingCharacters(in: .newlines)
            #expect(try Probe.topLevelBoxes(saved).prefix(2) == ["ftyp", "moov"])
            #expect(try Probe.decodedFrameCount(saved) <= frames, "at most the frames that played")
            let savedDuration = try Probe.formatDuration(saved)
            let savedStreams = try Probe.streams(saved).map { "\($0.kind) \($0.duration ?? -1) s" }
            #expect(abs(savedDuration - playable) < 0.1,
                    "saved \(savedDuration) s, played \(playable) s; crashed file: \(crashed); saved: \(savedStreams)")
            try Probe.expectStreamsEndTogether(saved, frameRate: 30)
        }

        @Test(arguments: [("stop", 0), ("SIGTERM", 0), ("SIGINT", 0)])
        func stoppingFinishesTheFileWithBothStreamsEndingTogether(how: String, expected: Int32) throws {
            let home = try Home()
            let child = try VidrecProcess(["start", "--camera", "test", "--mic", "test", "--quality", "low"], home: home.path)
            #expect(child.waitForError(containing: "vidrec: recording"))
            try child.waitUntilRecorded(2)
            // Only the contact sheet uses libavfilter: a recording does not load it (with
            // the libraries it needs, it would be about 12 MB of the recording's memory).
            let mapsFile = try #require(FileHandle(forReadingAtPath: "/proc/\(child.process.processIdentifier)/maps"))
            let maps = String(decoding: mapsFile.readDataToEndOfFile(), as: UTF8.self)
            #expect(maps.contains("libavcodec.so") && !maps.contains("libavfilter.so"), "\(maps.count) bytes of maps")
            switch how {
            case "stop":
                let stop = try VidrecProcess.run(["stop"], home: home.path)
                #expect(stop.code == 0, "\(stop.err)")
                #expect(stop.out.hasPrefix("stopped "))
                #expect(stop.out.contains(", finished; keep it with 'vidrec save'"))
            case "SIGTERM": child.signal(SIGTERM)
            default: child.signal(SIGINT)
            }
            let result = child.wait()
            #expect(result.code == expected, "\(result.err)")
            #expect(result.err.contains("vidrec: stopped: "))
            let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
            let streams = try Probe.streams(file)
            let video = try #require(streams.first { $0.kind == "video" }?.duration)
            let audio = try #require(streams.first { $0.kind == "audio" }?.duration)
            #expect(video >= 2)
            #expect(abs(video - audio) <= 1.0 / 15 + 1024.0 / 48000, "video \(video) s, audio \(audio) s")
            if how != "stop" { #expect(result.err.contains("vidrec: stopping (\(how)); finishing the file")) }
        }

        @Test func otherCodecsAndContainersRecordToo() throws {
            let home = try Home()
            let preset = """
            {"width": 320, "height": 240, "frameRate": 15, "container": "webm",
             "video": {"codec": "libvpx-vp9", "speed": "8", "crf": 40, "bitRate": "500k", "keyframeInterval": 15, "pixelFormat": "yuv420p"},
             "audio": {"codec": "libopus", "sampleRate": 48000, "channels": 1, "bitRate": "48k"}}
            """
            let file = home.path + "/web.json"
            try preset.write(toFile: file, atomically: true, encoding: .utf8)
            let result = try VidrecProcess.run(["start", "--camera", "test", "--mic", "test", "--quality", file, "--max", "2"], home: home.path)
            #expect(result.code == 0, "\(result.err)")
            let movie = try #require(home.files(in: home.pending, ending: ".webm").first)
            #expect(try Probe.streams(movie).map(\.codec) == ["vp9", "opus"])
            #expect(try Probe.decodedFrameCount(movie) == 30)

            let mpeg4 = home.path + "/mpeg4.json"
            try preset.replacingOccurrences(of: "\"webm\"", with: "\"mp4\"").replacingOccurrences(of: "libvpx-vp9", with: "mpeg4")
                .replacingOccurrences(of: "\"speed\": \"8\", \"crf\": 40, ", with: "")
                .replacingOccurrences(of: "libopus", with: "aac").write(toFile: mpeg4, atomically: true, encoding: .utf8)
            let second = try VidrecProcess.run(["start", "--camera", "test", "--mic", "test", "--quality", mpeg4, "--max", "1"], home: home.path)
            #expect(second.code == 0, "\(second.err)")
            let mp4 = try #require(home.files(in: home.pending, ending: ".mp4").first)
            #expect(try Probe.streams(mp4).map(\.codec) == ["mpeg4", "aac"])
        }
    }
}
