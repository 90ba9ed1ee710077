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
        FFmpegLog.configure(level: nil)
        let width = 640, height = 360
        let settings = MovieSettings(
            container: .mp4,
            video: VideoEncoding(codec: "libx264", width: width, height: height, frameRate: Rational(15),
                                 pixelFormat: "yuv420p", speed: "veryfast", crf: 26, bitRate: nil, keyframeInterval: 15),
            audio: nil)
        let encoder = try MovieEncoder(settings: settings, globalHeader: true)
        let log = PacketLog("log")
        encoder.connect(log, policy: .movieFile, threadName: "test.delay")
        let frames = 30
        for index in 0..<frames {
            try encoder.appendVideo(TestFrames.ramp(index, width: width, height: height), frameIndex: Int64(index))
        }
        // Before the flush: every frame but the last four has come out.
        let came = log.waitFor(frames - 4, of: .video, timeout: 30)
        #expect(came, "\(log.packets.count) packets out of \(frames) frames before the flush")
        try encoder.finish()
        #expect(log.packets.filter { $0.kind == .video }.count == frames)
    }
}
