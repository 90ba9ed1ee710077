import Foundation
import Testing
import VidrecFFmpeg
import VidrecMedia
import VidrecMP4

/// A movie whose first frames never reached its encoder (a starved machine: the encoder
/// was still starting while the session's queue for it was full, and the frames were
/// dropped, counted) still starts at time 0: its sound does, and a player must show a
/// picture from the first instant, so the streams start and end together.
@Suite(.timeLimit(.minutes(2))) struct MovieStartTests {
    @Test func aMovieWhoseFirstFramesWereDroppedStartsWithItsFirstPictureAtZero() throws {
        FFmpegLog.configure(level: nil)
        let folder = try EncodeOnceMuxManyTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let encoder = try MovieEncoder(settings: EncodeOnceMuxManyTests.settings(container: .mp4, audio: true), for: [.mp4])
        let mp4 = folder + "/movie.mp4"
        encoder.connect(try MovieFileOutput(path: mp4, container: .mp4, streams: encoder.streams), policy: .movieFile,
                        threadName: "test.file")
        // Slots 0-54 (3.67 s at 15 fps) never come; the sound is whole.
        for index in 0..<90 {
            if index >= 55 { try encoder.appendVideo(EncodeOnceMuxManyTests.frame(index), frameIndex: Int64(index)) }
            try encoder.appendAudio(EncodeOnceMuxManyTests.tone(index))
        }
        try encoder.finish()
        _ = try MovieFinalizer().finalize(mp4, trimToCommonEnd: false)

        let packets = try SegmentedFileOutputTests.videoPackets(mp4)
        let timeBase = try FFmpegTool.text("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=time_base",
                                                       "-of", "csv=p=0", mp4])
        let ticks = try #require(Int(timeBase.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(2))) / 15
        // The first picture at slot 0 too (a keyframe), then the frames at their slots.
        #expect(packets.map { $0.pts / ticks }.sorted() == [0] + Array(55..<90))
        #expect(packets.first?.key == true)
        let durations = try FFmpegTool.text("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,duration,start_time",
                                                        "-of", "csv=p=0", mp4])
        let lines = durations.split(separator: "\n").map { $0.split(separator: ",") }
        let video = try #require(lines.first { $0.first == "video" }), audio = try #require(lines.first { $0.first == "audio" })
        #expect(abs(Double(video[1])! - Double(audio[1])!) < 0.05, "start: \(durations)")
        #expect(abs(Double(video[2])! - Double(audio[2])!) < 0.1, "duration: \(durations)")
    }
}
