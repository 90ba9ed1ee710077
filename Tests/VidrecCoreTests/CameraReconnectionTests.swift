import Synchronization
import Testing
import VidrecCore
import VidrecMedia
import VidrecSystem

/// A camera that goes away mid-recording, with `--reconnect`: scripted cameras on the
/// session's real loop, the window timed on the monotonic clock.
@Suite struct CameraReconnectionTests {
    /// The scripts' capture times start an hour from now: the movie, which holds the last
    /// picture while the camera is gone as real time passes, has then not passed a slot
    /// the script puts a frame in (``aCameraThatStaysGoneIsHeldInRealTimeToTheLimit()``
    /// runs on the real clock).
    static let start = MonotonicClock.now() + 3_600_000_000_000
    static let audioPerSecond = CaptureSessionTests.audioPerSecond
    struct Unplugged: Error {}
    struct NotThere: Error {}

    /// A session over `camera` with 5 s of scripted audio, a 3 s limit and `reconnection`.
    static func session(_ camera: ScriptedCamera, reconnection: CameraReconnection?) -> CaptureSession {
        let microphone = ScriptedMicrophone(start: start, seconds: 5)
        camera.follow(microphone)
        return CaptureSession(video: camera, audio: microphone, frameRate: CaptureSessionTests.rate,
                              limits: RecordingLimits(maxDuration: DurationLimit(parsing: "3")),
                              queue: CaptureQueue(videoCapacity: 10_000, audioCapacity: 10_000), reconnection: reconnection)
    }

    /// On the real clock, with a 3 s limit: a camera that sends half a second (slots
    /// 0…14) and goes for good, waited for for `window` seconds, and 5 s of sound.
    static func realTimeSession(window: Rational) -> CaptureSession {
        let first = ScriptedCamera(start: MonotonicClock.now(), indexes: Array(0..<15), ending: .some(Unplugged()),
                                   paced: true, realTime: true)
        let reconnection = CameraReconnection(window: window, retryInterval: Rational(1, 100)) { throw NotThere() }
        return CaptureSession(video: first, audio: ScriptedMicrophone(startingNow: 5), frameRate: CaptureSessionTests.rate,
                              limits: RecordingLimits(maxDuration: DurationLimit(parsing: "3")),
                              queue: CaptureQueue(videoCapacity: 10_000, audioCapacity: 10_000), reconnection: reconnection)
    }

    /// Runs `session` into one movie output; returns it, the outcome and the camera events.
    static func record(_ session: CaptureSession) throws -> (RecordingOutput, RecordingOutcome, [String]) {
        let movie = RecordingOutput("movie")
        var events: [String] = []
        let outcome = try session.run(outputs: [OutputConnection(output: movie, policy: OutputPolicy(videoCapacity: 200))],
                                      reconnections: { events.append(Self.words($0)) })
        return (movie, outcome, events)
    }

    /// An event as the tests compare it: `lost scripted camera: Unplugged()`, `back …`,
    /// `gave up …`.
    static func words(_ event: ReconnectionEvent) -> String {
        switch event {
        case let .lost(_, device, reason): "lost \(device): \(reason)"
        case let .back(_, device, _): "back \(device)"
        case let .gaveUp(_, device, _, _): "gave up \(device)"
        }
    }

    @Test func aCameraThatComesBackGoesOnInTheSameMovieWithItsLastPictureOverTheGap() throws {
        // Slots 0…44, then gone; it opens again on the third try and sends from slot 60.
        let first = ScriptedCamera(start: Self.start, indexes: Array(0..<45), ending: .some(Unplugged()))
        let tries = Atomic<Int>(0)
        let reconnection = CameraReconnection(window: Rational(30), retryInterval: Rational(1, 100)) {
            guard tries.add(1, ordering: .sequentiallyConsistent).newValue >= 3 else { throw NotThere() }
            return ScriptedCamera(start: Self.start, indexes: Array(60..<120))
        }
        let (movie, outcome, events) = try Self.record(Self.session(first, reconnection: reconnection))
        #expect(events == ["lost scripted camera: Unplugged()", "back scripted camera"])
        #expect(tries.load(ordering: .sequentiallyConsistent) == 3)
        // One movie to the limit: the first camera's frames, its last one over the 15
        // slots it was gone, then the camera's again; the sound whole.
        #expect(movie.indexes == Array(0..<90))
        #expect(movie.frameBytes(at: 45) == 44 && movie.frameBytes(at: 59) == 44 && movie.frameBytes(at: 60) == 60)
        #expect(outcome.reason == .maximumDuration(DurationLimit(parsing: "3")!))
        #expect(outcome.error == nil)
        #expect(outcome.cameraGapFrames == 15 && outcome.cameraReturns == 1)
        #expect(outcome.cameraGaps.map(\.back) == [true] && outcome.cameraGaps.allSatisfy { $0.seconds >= 0 && $0.startTime != nil },
                "\(outcome.cameraGaps)")
        // The gap says why the camera went, in the words of the log's line.
        #expect(outcome.cameraGaps.map(\.reason) == ["Unplugged()"])
        #expect(outcome.videoFrames == 90 && outcome.droppedFrames == 0)
        #expect(movie.audioFrames == 3 * Self.audioPerSecond)
    }

    @Test func aCameraThatStaysGoneIsHeldInRealTimeToTheLimit() throws {
        // Half a second of frames on the real clock, then gone for good: the movie goes
        // on in real time with the last picture and the sound, and ends at its 3 s limit.
        let (movie, outcome, events) = try Self.record(Self.realTimeSession(window: Rational(30)))
        #expect(events == ["lost scripted camera: Unplugged()"])
        #expect(movie.indexes == Array(0..<90))
        #expect((15..<90).allSatisfy { movie.frameBytes(at: $0) == 14 })
        #expect(outcome.reason == .maximumDuration(DurationLimit(parsing: "3")!), "\(outcome.reason)")
        #expect(outcome.error == nil)
        #expect(outcome.cameraGapFrames == 75 && outcome.cameraReturns == 0)
        // Gone from 0.5 s to the 3 s limit, on the real clock.
        #expect(outcome.cameraGaps.map(\.back) == [false] && outcome.cameraGaps.allSatisfy { $0.seconds > 2 && $0.seconds < 10 },
                "\(outcome.cameraGaps)")
        #expect(outcome.videoFrames == 90 && outcome.droppedFrames == 0)
        #expect(movie.audioFrames == 3 * Self.audioPerSecond)
    }

    /// The progress reports (what `vidrec status` shows) say how long the camera has
    /// been gone while it is waited for, and nothing while it was there.
    @Test func progressSaysHowLongTheCameraHasBeenGone() throws {
        let session = Self.realTimeSession(window: Rational(30))
        var reports: [SessionProgress] = []
        _ = try session.run(outputs: [OutputConnection(output: RecordingOutput("movie"), policy: OutputPolicy(videoCapacity: 200))],
                            progress: { reports.append($0) })
        // Gone at 0.5 s; reports twice a second to the 3 s limit.
        let gone = reports.compactMap(\.cameraGone)
        #expect(gone.count >= 2, "\(reports.map(\.cameraGone))")
        #expect(gone == gone.sorted() && gone.allSatisfy { $0 >= 0 && $0 < 3 }, "\(gone)")
        // (At the limit the movie ends and the camera is no longer waited for.)
        #expect(reports.filter { $0.cameraGone == nil }.allSatisfy { $0.elapsed <= 0.6 || $0.elapsed >= 3 },
                "\(reports.map { ($0.elapsed, $0.cameraGone) })")
    }

    @Test func aCameraThatDoesNotComeBackInTimeEndsTheMovieWhenTheWindowIsOver() throws {
        // On the real clock: half a second of frames, then a 0.2 s window. The movie
        // holds the last picture, with its sound, until the session gives up.
        let (movie, outcome, events) = try Self.record(Self.realTimeSession(window: Rational(1, 5)))
        #expect(events == ["lost scripted camera: Unplugged()", "gave up scripted camera"])
        let count = Int64(movie.indexes.count)
        #expect(movie.indexes == Array(0..<count))
        // 0.2 s is 6 slots; the last one or two are still open when it gives up.
        #expect(count >= 18 && count <= 30, "\(count) frames")
        #expect((15..<count).allSatisfy { movie.frameBytes(at: $0) == 14 })
        #expect(outcome.cameraGapFrames == count - 15)
        let audio: Int64 = Self.audioPerSecond * count / 30
        #expect(movie.audioFrames == audio)
        #expect(outcome.duration == Rational(count, 30))
        guard case .sourceEnded(_, .video, _)? = outcome.error as? CaptureSessionError else {
            Issue.record("expected the camera's end, got \(String(describing: outcome.error))")
            return
        }
    }

    @Test func aStopWhileTheCameraIsGoneEndsTheMovieWhereItWent() throws {
        let first = ScriptedCamera(start: Self.start, indexes: Array(0..<45), ending: .some(Unplugged()))
        let waiting = Atomic<Bool>(false)
        let stopping = Mutex<CaptureSession?>(nil)
        let reconnection = CameraReconnection(window: Rational(30), retryInterval: Rational(1, 100)) {
            // The first try stops the recording, as `vidrec stop` would while it waits.
            if !waiting.exchange(true, ordering: .sequentiallyConsistent) { stopping.withLock { $0 }?.requestStop() }
            throw NotThere()
        }
        let recording = Self.session(first, reconnection: reconnection)
        stopping.withLock { $0 = recording }
        let (movie, outcome, events) = try Self.record(recording)
        #expect(events == ["lost scripted camera: Unplugged()"])
        #expect(movie.indexes == Array(0..<45))
        #expect(outcome.duration == Rational(45, 30))
        #expect(outcome.reason == .stopped, "\(outcome.reason)")
    }
}
