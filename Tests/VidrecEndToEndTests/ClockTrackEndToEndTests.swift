import Foundation
import Glibc
import Testing

/// `--clock-track`: a subtitle track with the local time at which each second's first
/// picture was captured, read back with ffmpeg as SubRip cues.
@Suite struct ClockTrackEndToEndTests {
    /// A cue: when it shows (seconds, from the file's start) and the time it says.
    struct Cue {
        var start: Double
        var end: Double
        var time: Date
    }

    /// The clock track's cues in `file`, their texts read as `%F %T +0300`.
    static func cues(_ file: String) throws -> [Cue] {
        let srt = String(decoding: try Probe.tool("ffmpeg", ["-v", "error", "-i", file, "-map", "0:s:0", "-f", "srt", "-"]), as: UTF8.self)
        let local = DateFormatter()
        local.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        func seconds(_ text: Substring) -> Double {
            let parts = text.split(whereSeparator: { ":,".contains($0) }).compactMap { Double($0) }
            return parts.count == 4 ? parts[0] * 3600 + parts[1] * 60 + parts[2] + parts[3] / 1000 : -1
        }
        return try srt.components(separatedBy: "\n\n").filter { $0.contains("-->") }.map { block in
            let lines = block.split(separator: "\n")
            let times = lines[1].components(separatedBy: " --> ")
            let text = String(lines[2]).replacing(/<[^>]*>/, with: "")
            let time = try #require(local.date(from: text), "cue text: \(text)")
            #expect(text.hasSuffix(" +0300"), "\(text)")
            return Cue(start: seconds(Substring(times[0])), end: seconds(Substring(times[1])), time: time)
        }
    }

    /// Where the first picture of `file` starts and the last ends, in seconds.
    static func pictures(_ file: String) throws -> (start: Double, end: Double) {
        let packets = String(decoding: try Probe.tool("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                                  "packet=pts_time,duration_time", "-of", "csv=p=0", file]), as: UTF8.self)
        let spans = packets.split(separator: "\n").compactMap { line -> (Double, Double)? in
            let parts = line.split(separator: ",").compactMap { Double($0) }
            return parts.count == 2 ? (parts[0], parts[0] + parts[1]) : nil
        }
        return (spans.map(\.0).min() ?? 0, spans.map(\.1).max() ?? 0)
    }

    /// Where `file` starts (its earliest stream's first time): ffmpeg's SubRip output
    /// counts from there, so a cue's time in the file is its SubRip time plus this.
    static func startTime(_ file: String) throws -> Double {
        let text = String(decoding: try Probe.tool("ffprobe", ["-v", "error", "-show_entries", "format=start_time", "-of", "csv=p=0", file]),
                          as: UTF8.self)
        return Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// Recorded encoded into MP4, copied into MP4, encoded into Matroska (SubRip) and
    /// into WebM (VP8, Opus and WebVTT): a cue a
    /// second from the first picture to the last, each the capture time in the time
    /// zone of `TZ` (UTC+3), the first the sidecar's start time to the second; the track
    /// ends with the picture, and the movie is as long as without it.
    @Test(arguments: [["--camera", "test", "--quality", "low"], ["--camera", "test:h264", "--video", "copy", "--quality", "low"],
                      ["--camera", "test", "--quality", "$HOME/mkv.json"], ["--camera", "test", "--quality", "$HOME/webm.json"]])
    func aCueASecondGivesItsFirstPicturesCaptureTimeAndTheTrackEndsWithThePicture(options: [String]) throws {
        let home = try Home()
        try #"{"width": 320, "height": 180, "frameRate": 15, "container": "mkv", "video": {"codec": "libx264", "speed": "ultrafast", "crf": 23, "keyframeInterval": 15, "pixelFormat": "yuv420p"}, "audio": {"codec": "aac", "sampleRate": 48000, "channels": 1, "bitRate": "64k"}}"#
            .write(toFile: home.path + "/mkv.json", atomically: true, encoding: .utf8)
        try #"{"width": 320, "height": 180, "frameRate": 15, "container": "webm", "video": {"codec": "libvpx", "bitRate": "500k", "keyframeInterval": 15, "pixelFormat": "yuv420p"}, "audio": {"codec": "libopus", "sampleRate": 48000, "channels": 1, "bitRate": "64k"}}"#
            .write(toFile: home.path + "/webm.json", atomically: true, encoding: .utf8)
        let arguments = options.map { $0.replacingOccurrences(of: "$HOME", with: home.path) }
        let result = try VidrecProcess.run(["start", "--mic", "test", "--max", "2.5", "--clock-track"] + arguments,
                                           home: home.path, environment: ["TZ": "XYZ-3"])
        #expect(result.code == 0, "\(result.err)")
        let ending = options.last.map { $0.hasSuffix(".json") ? "." + ($0 as NSString).lastPathComponent.dropLast(5) : ".mp4" } ?? ".mp4"
        let file = try #require(home.files(in: home.pending, ending: ending).first, "\(result.err)")
        let streams = try Probe.streams(file)
        #expect(streams.map(\.kind) == ["video", "audio", "subtitle"], "\(streams)")
        // The cues in the file's own time, against its pictures' (Matroska moves the
        // streams by the AAC encoder's priming, FFmpeg 5.1 and 7.1 each their own way;
        // WebM by Opus's pre-skip).
        let shift = try Self.startTime(file)
        let cues = try Self.cues(file).map { Cue(start: $0.start + shift, end: $0.end + shift, time: $0.time) }
        let video = try Self.pictures(file)
        #expect(cues.map { (($0.start - video.start) * 1000).rounded() } == [0, 1000, 2000], "\(cues), pictures \(video)")
        #expect(abs(cues.last!.end - video.end) < 0.002, "the last cue ends with the last picture (\(video)): \(cues)")
        #expect(abs(try Probe.formatDuration(file) - 2.5) < 0.06, "the movie is as long as --max")
        let startTime = try #require(try home.sidecar()["startTime"] as? String)
        let start = try #require(ISO8601DateFormatter().date(from: startTime))
        #expect(abs(cues[0].time.timeIntervalSince(start)) <= 1, "the first cue says \(cues[0].time), the recording started \(start)")
        for (a, b) in zip(cues, cues.dropFirst()) {
            let apart = b.time.timeIntervalSince(a.time)
            #expect(apart >= 0 && apart <= 2, "cues a second apart on the wall clock too: \(cues)")
        }
    }

    /// Each segment of a series has its own track, from a cue at its first picture, and
    /// the cues go on from one file to the next.
    @Test func everySegmentStartsWithACueAndTheClockGoesOnAcrossThem() throws {
        let home = try Home()
        let result = try VidrecProcess.run(["start", "--camera", "test", "--mic", "test", "--quality", "low", "--max", "4", "--segment", "2",
                                            "--clock-track"], home: home.path, environment: ["TZ": "XYZ-3"])
        #expect(result.code == 0, "\(result.err)")
        let files = try home.files(in: home.pending, ending: ".mp4").sorted()
        try #require(files.count == 2, "\(result.err)")
        let cues = try files.map(Self.cues)
        for (file, fileCues) in zip(files, cues) {
            #expect(fileCues.map(\.start) == [0, 1] && fileCues.last?.end == 2, "\(file): \(fileCues)")
        }
        let across = cues[1][0].time.timeIntervalSince(cues[0][1].time)
        #expect(across >= 0 && across <= 2, "\(cues)")
    }

    /// A recording killed mid-way and recovered: its clock track is cut with the other
    /// streams, ending no later than the picture, and the movie is as long as its picture.
    @Test func aKilledRecordingIsRecoveredWithItsClockTrackCutWithThePicture() throws {
        let home = try Home()
        let recover = try VidrecProcess.killAndRecover(["--camera", "test", "--mic", "test", "--quality", "low", "--clock-track"], after: 3,
                                                       home: home.path, environment: ["TZ": "XYZ-3"])
        #expect(recover.code == 0, "\(recover.err)")
        let file = try #require(home.files(in: home.pending, ending: ".mp4").first)
        try Probe.expectStreamsEndTogether(file, frameRate: 15)
        let cues = try Self.cues(file)
        let video = try Self.pictures(file).end
        #expect(cues.count >= 2 && cues.map(\.start) == Array(0..<cues.count).map(Double.init), "\(cues)")
        let duration = try Probe.formatDuration(file)
        #expect(cues.last!.end <= video + 0.001 && abs(duration - video) < 0.03, "\(cues), the picture ends at \(video) s, the movie at \(duration) s")
    }
}
