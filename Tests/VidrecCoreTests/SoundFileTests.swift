import Testing
import VidrecCore
import VidrecMedia

/// How a sound recording (`--camera none`) is timed and which file it becomes.
@Suite struct SoundFileTests {
    @Test func theSoundFileFollowsTheAudioCodecAndThePresetsContainer() {
        #expect(Container.mp4.soundFile(for: "aac") == .m4a)
        #expect(Container.mov.soundFile(for: "aac") == .m4a)
        #expect(Container.mp4.soundFile(for: "libopus") == .opus)
        #expect(Container.mov.soundFile(for: "opus") == .opus)
        // Matroska and WebM hold sound alone as they are.
        #expect(Container.mkv.soundFile(for: "libopus") == .mkv)
        #expect(Container.mkv.soundFile(for: "aac") == .mkv)
        #expect(Container.webm.soundFile(for: "libopus") == .webm)
        #expect(Container.m4a.isFragmentedWhileRecording && !Container.opus.isFragmentedWhileRecording)
    }

    @Test func aPresetCannotNameASoundFileContainer() {
        #expect(!Container.m4a.isMovie && !Container.opus.isMovie && !Container.jpeg.isMovie)
        #expect(Container.allCases.filter(\.isMovie) == [.mp4, .mov, .mkv, .webm])
    }

    @Test func noCameraMakesTheMovieSoundOnlyOnATickGrid() {
        var video = VideoEncoding(codec: "libx264", width: 1920, height: 1080, frameRate: Rational(30), pixelFormat: "yuv420p",
                                  speed: nil, crf: 23, bitRate: nil, keyframeInterval: 30)
        let opened = NoCamera.open(adjusting: &video)
        #expect(!video.isRecorded && video.frameRate == NoCamera.tickRate)
        #expect(opened.path == nil && opened.copiedStream == nil)
        // A tick is a whole number of samples at every common rate.
        for rate: Int64 in [8000, 16000, 22050, 32000, 44100, 48000, 96000] {
            #expect((Rational(rate) * NoCamera.tickRate.reciprocal).denominator == 1, "\(rate) Hz")
        }
    }

    @Test func noCameraTicksInRealTimeWithBlankFrames() throws {
        let camera = NoCamera()
        let queue = CaptureQueue()
        try camera.start(into: queue)
        var times: [Int64] = []
        while times.count < 5, let event = queue.pop(timeout: 5) {
            guard case .video(let frame) = event else { continue }
            #expect(frame.width == 16 && frame.height == 16 && frame.sequence == UInt64(times.count))
            times.append(frame.captureTime)
        }
        camera.stop()
        #expect(times.count == 5)
        // 20 ms apart, on the monotonic clock.
        #expect(zip(times.dropFirst(), times).allSatisfy { $0 - $1 == 20_000_000 }, "\(times)")
    }
}
