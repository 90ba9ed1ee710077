import Foundation
import Testing
import VidrecFFmpeg
import VidrecMedia

/// What a `kill -9` loses is mostly what the encoder still holds: x264 holds back as few
/// frames as the picture size allows (`VideoStreamEncoder`'s low-latency settings).
@Suite(.timeLimit(.minutes(2))) struct EncoderDelayTests {
    /// `low`'s picture (640x360 at 15 fps, veryfast): x264 encodes each frame in slices,
    /// so it holds only the frames its B-frames wait for and one more (4, 0.27 s), on any
    /// number of cores. With frame threads it held 6 on two cores, and more on more.
    @Test func x264HoldsNoMoreThanItsBFramesForASmallPicture() throws {
        let video = VideoEncoding(codec: "libx264", width: 640, height: 360, frameRate: Rational(15),
                                  pixelFormat: "yuv420p", speed: "veryfast", crf: 26, bitRate: nil, keyframeInterval: 15)
        try Self.expectEncoderHolds(4, of: 30, video)
    }

    /// `medium`'s picture (1280x720 at 30 fps, veryfast) is encoded several frames at once,
    /// each frame thread holding a frame. x264 starts one and a half threads a processor:
    /// on 16 processors it would hold 31 frames (a second); vidrec caps the threads so
    /// that it holds 10 (0.33 s), as on two processors.
    @Test(arguments: [(processors: 2, held: 10), (processors: 16, held: 10)])
    func x264HoldsAThirdOfASecondOnAnyNumberOfProcessors(processors: Int, held: Int) throws {
        var video = VideoEncoding(codec: "libx264", width: 1280, height: 720, frameRate: Rational(30),
                                  pixelFormat: "yuv420p", speed: "veryfast", crf: 23, bitRate: nil, keyframeInterval: 30)
        video.processors = processors
        try Self.expectEncoderHolds(held, of: 45, video)
    }

    /// Encodes `frames` frames with `video` and expects every one but the last `held` to
    /// have come out of the encoder before its flush, and all of them after it.
    static func expectEncoderHolds(_ held: Int, of frames: Int, _ video: VideoEncoding) throws {
        FFmpegLog.configure(level: nil)
        let encoder = try MovieEncoder(settings: MovieSettings(container: .mp4, video: video, audio: nil), globalHeader: true)
        let log = PacketLog("log")
        encoder.connect(log, policy: .movieFile, threadName: "test.delay")
        for index in 0..<frames {
            try encoder.appendVideo(TestFrames.ramp(index, width: video.width, height: video.height), frameIndex: Int64(index))
        }
        let came = log.waitFor(frames - held, of: .video, timeout: 30)
        #expect(came, "\(log.packets.count) packets out of \(frames) frames before the flush (\(video.processors.map { "\($0)" } ?? "this machine's") processors)")
        try encoder.finish()
        #expect(log.packets.filter { $0.kind == .video }.count == frames)
    }
}
