import Dispatch
import Synchronization
import Testing
import VidrecCore
import VidrecMedia

/// The capture session with scripted sources and recording outputs: no devices, no
/// FFmpeg, no clocks to wait on. Capture times decide placement, so each case replays
/// its seconds of capture at once and ends on the session's own events.
@Suite struct CaptureSessionTests {
    static let start: Int64 = 5_000 * 1_000_000_000
    static let rate = Rational(30)
    static let audioPerSecond: Int64 = 48000

    /// A session over `camera` and, optionally, 5 s of scripted audio, with a capture
    /// queue large enough to take the whole script.
    func session(_ camera: ScriptedCamera, audio: Bool = true, maxDuration: Double? = nil) -> CaptureSession {
        CaptureSession(video: camera, audio: audio ? microphone(following: camera, seconds: 5) : nil,
                       frameRate: Self.rate, limits: RecordingLimits(maxDuration: maxDuration.flatMap { DurationLimit(parsing: "\($0)") }),
                       queue: CaptureQueue(videoCapacity: 10_000, audioCapacity: 10_000))
    }

    /// `seconds` of scripted audio, delivered after `camera`'s first frame.
    func microphone(following camera: ScriptedCamera, seconds: Int) -> ScriptedMicrophone {
        let microphone = ScriptedMicrophone(start: Self.start, seconds: seconds)
        camera.follow(microphone)
        return microphone
    }

    @Test func theLimitEndsEveryOutputAtTheSameFrameWithAudioToTheSameTime() throws {
        let camera = ScriptedCamera(start: Self.start, indexes: Array(0..<120))
        let movie = RecordingOutput("movie")
        let live = RecordingOutput("live")
        let outcome = try session(camera, maxDuration: 3).run(outputs: [
            OutputConnection(output: movie, policy: OutputPolicy(videoCapacity: 200)),
            OutputConnection(output: live, policy: OutputPolicy(videoCapacity: 200, isEssential: false)),
        ])
        #expect(outcome.reason == .maximumDuration(DurationLimit(parsing: "3")!))
        for output in [movie, live] {
            #expect(output.indexes == Array(0..<90))
            #expect(output.audioFrames == 3 * Self.audioPerSecond)
            #expect(output.finishCount == 1)
        }
        #expect(outcome.videoFrames == 90 && outcome.audioFrames == 3 * Self.audioPerSecond)
        #expect(outcome.droppedFrames == 0 && outcome.queueDroppedFrames == 0 && outcome.repeatedFrames == 0)
        #expect(outcome.bytes == 90_000)
    }

    @Test func aStalledOutputDropsVideoInItsOwnQueueAndNeverStallsCaptureOrTheOtherOutputs() throws {
        let camera = ScriptedCamera(start: Self.start, indexes: Array(0..<120))
        let stalled = RecordingOutput("stalled", waitsForRelease: true)
        // The stalled output's disk comes back only when the other output has been
        // finished, that is, after the whole recording has gone past it.
        let other = RecordingOutput("other", onFinish: { stalled.releaseStall() })
        let capacity = 4
        let outcome = try session(camera, maxDuration: 3).run(outputs: [
            OutputConnection(output: stalled, policy: OutputPolicy(videoCapacity: capacity)),
            OutputConnection(output: other, policy: OutputPolicy(videoCapacity: 200, isEssential: false)),
        ])
        // The other output and the capture saw every frame and all the audio.
        #expect(other.indexes == Array(0..<90))
        #expect(other.audioFrames == 3 * Self.audioPerSecond)
        // The stalled one kept what its queue held, and the newest frame so that the
        // movie still lasts its three seconds; the rest was dropped and counted.
        let kept = stalled.indexes
        #expect(kept.first == 0 && kept.last == 89)
        #expect(kept == kept.sorted() && Set(kept).count == kept.count)
        #expect(kept.count <= capacity + 2)
        #expect(outcome.videoFrames == Int64(kept.count))
        #expect(outcome.queueDroppedFrames == 90 - Int64(kept.count))
        #expect(outcome.droppedFrames == 0)
        // Audio is never dropped for a slow output.
        #expect(stalled.audioFrames == 3 * Self.audioPerSecond)
        #expect(outcome.reason.isSuccess && outcome.duration == Rational(3))
    }

    @Test func progressSaysHowManyFramesWaitForTheMoviesEncoderAndHowManyItDroppedAndAStopStillWritesThem() throws {
        // Two seconds of frames at once, then nothing (the camera goes on running): the
        // movie's output stalls in its first frame, its queue fills, the rest drops.
        let camera = ScriptedCamera(start: Self.start, indexes: Array(0..<60), ending: nil)
        let movie = RecordingOutput("movie", waitsForRelease: true)
        let session = session(camera, audio: false)
        let snapshot = Mutex<SessionProgress?>(nil)
        let capacity = 10
        let outcome = try session.run(outputs: [OutputConnection(output: movie, policy: OutputPolicy(videoCapacity: capacity))]) { progress in
            // The first snapshot ends the recording, as a Ctrl-C reading it would.
            guard snapshot.withLock({ $0 }) == nil else { return }
            snapshot.withLock { $0 = progress }
            session.requestStop()
            movie.releaseStall()
        }
        let seen = try #require(snapshot.withLock { $0 })
        // The queue was full: `capacity` frames, or one fewer when the output took its
        // first frame only after the queue had filled.
        #expect((capacity - 1...capacity).contains(Int(seen.encodingBacklogFrames)), "\(seen)")
        #expect(seen.encodingBacklog == Double(seen.encodingBacklogFrames) / 30)
        // What waited was written after the stop: the frame the output was stalled in,
        // the waiting ones, and the newest (dropped, or held back by the session until
        // its slot was final, and delivered at the end either way).
        #expect(movie.indexes.count >= Int(seen.encodingBacklogFrames) + 1, "\(movie.indexes)")
        #expect(movie.indexes.last == 59)
        #expect(outcome.reason.isSuccess)
        // Every frame the session had then was the stalled one, waiting, or dropped
        // because encoding fell behind (the camera skipped none), and the snapshot says so.
        #expect(seen.encodingDroppedFrames > 0, "\(seen)")
        #expect(seen.encodingDroppedFrames == seen.droppedFrames, "\(seen)")
        // It counts as recorded only the frames that reach the file (or wait for it).
        #expect(seen.videoFrames <= 1 + seen.encodingBacklogFrames + 1, "\(seen)")
        // Every frame is in the file or counted as dropped, once.
        #expect(movie.indexes.count + Int(outcome.queueDroppedFrames) == 60, "\(movie.indexes) \(outcome)")
        #expect(outcome.queueDroppedFrames <= seen.encodingDroppedFrames, "\(seen)")
    }

    @Test func aFailingMovieOutputEndsTheRecordingAndIsStillFinished() throws {
        let camera = ScriptedCamera(start: Self.start, indexes: Array(0..<150))
        let movie = RecordingOutput("movie", failAtFrame: 40)
        let outcome = try session(camera, audio: false).run(outputs: [
            OutputConnection(output: movie, policy: OutputPolicy(videoCapacity: 1_000)),
        ])
        #expect(outcome.error is RecordingOutput.DiskFull)
        #expect(!outcome.reason.isSuccess)
        #expect(movie.indexes == Array(0..<40))
        #expect(movie.finishCount == 1)
    }

    @Test func aFailingOutputBesideTheMovieIsLeftBehindAndTheMovieGoesOn() throws {
        let camera = ScriptedCamera(start: Self.start, indexes: Array(0..<120))
        let movie = RecordingOutput("movie")
        let live = RecordingOutput("live stream", failAtFrame: 10)
        let outcome = try session(camera, maxDuration: 2).run(outputs: [
            OutputConnection(output: movie, policy: OutputPolicy(videoCapacity: 200)),
            OutputConnection(output: live, policy: OutputPolicy(videoCapacity: 200, isEssential: false)),
        ])
        #expect(outcome.reason == .maximumDuration(DurationLimit(parsing: "2")!))
        #expect(movie.indexes == Array(0..<60) && movie.audioFrames == 2 * Self.audioPerSecond)
        #expect(live.indexes == Array(0..<10) && live.finishCount == 1)
        #expect(outcome.lostOutputs.count == 1)
        #expect(outcome.lostOutputs.first?.hasPrefix("live stream: ") == true)
    }

    @Test func anOutputThatFallsFarBehindIsOfferedNoMoreVideoUntilItCatchesUpAndTheRecordingGoesOn() throws {
        // Six seconds of backlog: no video offered past one second behind. The queue
        // would take all 150 frames; the output takes none until the end.
        let camera = ScriptedCamera(start: Self.start, indexes: Array(0..<150))
        let stalled = RecordingOutput("movie", waitsForRelease: true)
        let other = RecordingOutput("other", onFinish: { stalled.releaseStall() })
        let outcome = try session(camera, maxDuration: 5).run(outputs: [
            OutputConnection(output: stalled, policy: OutputPolicy(videoCapacity: 200, audioBacklogSeconds: 6)),
            OutputConnection(output: other, policy: OutputPolicy(videoCapacity: 200, isEssential: false)),
        ])
        // At most about a second of frames (fewer when its thread started late on a busy
        // machine: those it took more than a second behind were skipped), then the
        // newest at the end.
        let kept = stalled.indexes
        #expect(kept.last == 149 && kept == kept.sorted())
        #expect(kept.count >= 1 && kept.count < 60, "\(kept)")
        #expect(outcome.queueDroppedFrames == 150 - Int64(kept.count))
        #expect(stalled.audioFrames == 5 * Self.audioPerSecond)
        #expect(outcome.reason.isSuccess && outcome.duration == Rational(5))
        #expect(other.indexes == Array(0..<150))
    }

    @Test func anOutputFarBehindSkipsTheFramesWaitingInItsQueueUntilItCatchesUpButNotTheNewest() throws {
        // Lagging past one second: it stalls in frame 0 while 20 frames and two seconds
        // of audio queue up behind it.
        let movie = RecordingOutput("movie", waitsForRelease: true)
        let allAudio = DispatchSemaphore(value: 0)
        movie.onAudio = { if $0 == 96_000 { allAudio.signal() } }
        let connection = OutputConnection(output: movie, policy: OutputPolicy(videoCapacity: 200, audioBacklogSeconds: 6))
        connection.start()
        let format = AudioFormat(sampleFormat: .s16, sampleRate: 48000, channels: 1)
        func frame(_ index: Int64) -> VideoFrame {
            VideoFrame(pixelFormat: .yuyv, width: 2, height: 2, buffer: FrameBuffer(count: 8), byteCount: 8,
                       strides: [4], captureTime: index, sequence: UInt64(index))
        }
        let stalled = DispatchSemaphore(value: 0)
        movie.onStall = { stalled.signal() }
        #expect(connection.send(video: frame(0), frameIndex: 0))
        #expect(stalled.wait(timeout: .now() + 60) == .success)
        for index in 1..<20 { #expect(connection.send(video: frame(Int64(index)), frameIndex: Int64(index))) }
        for _ in 0..<200 { connection.send(audio: .silence(format: format, frameCount: 480, captureTime: 0)) }
        // Two seconds behind: a frame offered now is dropped at once.
        #expect(!connection.send(video: frame(20), frameIndex: 20))
        movie.releaseStall()
        // The waiting frames are skipped while more than a second of audio waits.
        #expect(allAudio.wait(timeout: .now() + 60) == .success)
        #expect(movie.indexes == [0])
        #expect(connection.waitUntilFinished() == nil)
        // The newest frame comes at the end, so the movie lasts to its last slot.
        #expect(movie.indexes == [0, 20])
        #expect(connection.droppedVideoFrames == 19)
    }

    @Test func anOutputFarBehindOnAudioFailsInsteadOfDroppingAudio() throws {
        let camera = ScriptedCamera(start: Self.start, indexes: Array(0..<150))
        let stalled = RecordingOutput("stalled", waitsForRelease: true)
        let movie = RecordingOutput("movie", onFinish: { stalled.releaseStall() })
        let outcome = try session(camera, maxDuration: 4).run(outputs: [
            OutputConnection(output: movie, policy: OutputPolicy(videoCapacity: 200)),
            OutputConnection(output: stalled, policy: OutputPolicy(videoCapacity: 200, audioBacklogSeconds: 1, isEssential: false)),
        ])
        #expect(outcome.lostOutputs.first?.contains("fell more than 1 s behind") == true)
        #expect(stalled.audioFrames < Self.audioPerSecond)
        #expect(movie.audioFrames == 4 * Self.audioPerSecond && outcome.audioFrames == movie.audioFrames)
        #expect(outcome.reason.isSuccess)
    }

    @Test func aVanishedCameraEndsTheMovieWithAudioToTheSameTime() throws {
        struct Unplugged: Error {}
        let camera = ScriptedCamera(start: Self.start, indexes: Array(0..<45), ending: .some(Unplugged()))
        let movie = RecordingOutput("movie")
        let outcome = try session(camera).run(outputs: [OutputConnection(output: movie, policy: OutputPolicy(videoCapacity: 100))])
        #expect(movie.indexes == Array(0..<45))
        #expect(movie.audioFrames == Self.audioPerSecond * 45 / 30)
        #expect(outcome.duration == Rational(45, 30))
        guard case .sourceEnded(_, .video, _)? = outcome.error as? CaptureSessionError else {
            Issue.record("expected the camera's end, got \(String(describing: outcome.error))")
            return
        }
    }

    @Test func slotsTheCameraSkippedBeforeTheLimitHoldTheLastFrameUntilTheEnd() throws {
        // The camera delivers slots 0…79, then skips to 95: slots 80…89 are empty.
        let camera = ScriptedCamera(start: Self.start, indexes: Array(0..<80) + [95, 96])
        let movie = RecordingOutput("movie")
        let outcome = try session(camera, maxDuration: 3).run(outputs: [OutputConnection(output: movie, policy: OutputPolicy(videoCapacity: 200))])
        #expect(movie.indexes == Array(0..<90))
        #expect(outcome.videoFrames == 80 && outcome.droppedFrames == 10 && outcome.repeatedFrames == 10)
        #expect(movie.audioFrames == 3 * Self.audioPerSecond)
    }

    @Test func aMicrophoneThatStopsShortIsPaddedWithSilenceAtTheEndAndTheOutcomeSaysHowMuch() throws {
        // Three seconds of video, but the microphone sends two and then nothing: once its
        // grace time is over, the last second is silence, counted apart from gaps.
        let camera = ScriptedCamera(start: Self.start, indexes: Array(0..<120))
        let movie = RecordingOutput("movie")
        let outcome = try CaptureSession(
            video: camera, audio: microphone(following: camera, seconds: 2), frameRate: Self.rate,
            limits: RecordingLimits(maxDuration: DurationLimit(parsing: "3")),
            queue: CaptureQueue(videoCapacity: 10_000, audioCapacity: 10_000)
        ).run(outputs: [OutputConnection(output: movie, policy: OutputPolicy(videoCapacity: 200))])
        #expect(movie.indexes == Array(0..<90))
        #expect(movie.audioFrames == 3 * Self.audioPerSecond, "audio ends with the video")
        #expect(outcome.closingSilence == Self.audioPerSecond, "\(outcome.closingSilence) frames of closing silence")
        #expect(outcome.insertedSilence == 0, "no gap inside the recording")
        #expect(outcome.audioFrames == 3 * Self.audioPerSecond)
    }

    @Test func aMicrophoneThatCoversTheEndAddsNoClosingSilence() throws {
        let camera = ScriptedCamera(start: Self.start, indexes: Array(0..<120))
        let movie = RecordingOutput("movie")
        let outcome = try session(camera, maxDuration: 3).run(outputs: [OutputConnection(output: movie, policy: OutputPolicy(videoCapacity: 200))])
        #expect(outcome.closingSilence == 0 && movie.audioFrames == 3 * Self.audioPerSecond)
    }

    @Test func theCaptureQueueDropsVideoPastItsCapacityButNeverTheEndOfASource() {
        let queue = CaptureQueue(videoCapacity: 2, audioCapacity: 1)
        let camera = ScriptedCamera(start: Self.start, indexes: Array(0..<5), ending: .some(nil))
        try? camera.start(into: queue)
        let format = AudioFormat(sampleFormat: .s16, sampleRate: 48000, channels: 1)
        #expect(queue.push(.audio(.silence(format: format, frameCount: 480, captureTime: 0))))
        #expect(!queue.push(.audio(.silence(format: format, frameCount: 480, captureTime: 0))))
        #expect(queue.droppedVideoFrames == 3)
        #expect(queue.droppedAudioChunks == 1 && queue.droppedAudioFrames == 480)
        var kinds: [String] = []
        while let event = queue.pop(timeout: 0) {
            switch event {
            case .video(let frame): kinds.append("video \(frame.sequence)")
            case .audio: kinds.append("audio")
            case .sourceEnded: kinds.append("ended")
            }
        }
        #expect(kinds == ["video 0", "video 1", "ended", "audio"])
    }
}
