import Testing
import VidrecCore
import VidrecMedia

/// Audio follows video: what the session writes of the audio never runs ahead of the
/// video, whatever ends the recording.
@Suite struct AudioGateTests {
    static let second: Int64 = 1_000_000_000
    static let start: Int64 = 1_000 * second
    static let mono = AudioFormat(sampleFormat: .s16, sampleRate: 48000, channels: 1)

    func frame(at time: Int64) -> VideoFrame {
        VideoFrame(pixelFormat: .yuyv, width: 2, height: 2, buffer: FrameBuffer(count: 8), byteCount: 8,
                   strides: [4], captureTime: time, sequence: 0)
    }

    /// Feeds the session's way: timeline, then gate, then release up to the video's end.
    struct Feed {
        var timeline = Timeline(frameRate: Rational(30), sampleRate: 48000, maxDuration: nil, start: AudioGateTests.start)
        var gate = AudioGate()
        var written: Int64 = 0
        var videoFrames: Int64 = 0

        mutating func video(_ frame: VideoFrame) {
            if timeline.place(frame, arrival: frame.captureTime).index != nil { videoFrames += 1 }
            release()
        }
        mutating func audio(at time: Int64) {
            gate.hold(timeline.place(.silence(format: AudioGateTests.mono, frameCount: 480, captureTime: time), arrival: time))
            release()
        }
        mutating func release() {
            written += gate.release(upTo: timeline.videoEndInAudioFrames).reduce(0) { $0 + Int64($1.frameCount) }
        }
        mutating func end() {
            written += gate.finish(at: timeline.finalAudioLength ?? 0).reduce(0) { $0 + Int64($1.frameCount) }
            written += Int64(timeline.closingSilence(format: AudioGateTests.mono)?.frameCount ?? 0)
        }
    }

    @Test func aStopWhileEncodingLagsEndsBothStreamsTogether() {
        // Encoding fell behind: the queue dropped frames 8…29, while the audio of that
        // second all arrived. Stopping then must not leave the audio 0.7 s longer.
        var feed = Feed()
        for n in 0..<30 {
            let t = Self.start + Int64(n) * Self.second / 30
            if n < 8 { feed.video(frame(at: t)) }
            for k in 0..<4 { feed.audio(at: t + Int64(k) * Self.second / 120) }
        }
        #expect(feed.written <= 8 * 1600, "audio waits for video: \(feed.written) samples written")
        feed.timeline.stop(at: Self.start + Self.second)
        feed.end()
        #expect(feed.timeline.duration == Rational(8, 30))
        #expect(feed.written == 8 * 1600, "audio ends exactly where the video does")
        #expect(feed.gate.discarded > 0)
    }

    @Test func audioShortOfTheVideoAtTheEndIsFilledWithSilence() {
        var feed = Feed()
        for n in 0..<30 { feed.video(frame(at: Self.start + Int64(n) * Self.second / 30)) }
        for k in 0..<50 { feed.audio(at: Self.start + Int64(k) * Self.second / 100) }
        feed.timeline.stop(at: Self.start + Self.second)
        feed.end()
        #expect(feed.written == 48000)
    }

    @Test func piecesStraddlingTheVideoEndAreSplitExactly() {
        var gate = AudioGate()
        gate.hold([.silence(format: Self.mono, frameCount: 1000, captureTime: 0),
                   .silence(format: Self.mono, frameCount: 1000, captureTime: 0)])
        #expect(gate.release(upTo: 1500).map(\.frameCount) == [1000, 500])
        #expect(gate.held == 500 && gate.released == 1500)
        #expect(gate.release(upTo: 1500).isEmpty)
        #expect(gate.finish(at: 1800).map(\.frameCount) == [300])
        #expect(gate.discarded == 200 && gate.held == 0)
    }
}
