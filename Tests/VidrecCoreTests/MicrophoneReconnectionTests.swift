import Synchronization
import Testing
import VidrecCore
import VidrecMedia
import VidrecSystem

/// A microphone that goes away mid-recording, with `--reconnect`: a scripted camera on
/// the real clock (the silence that stands for the microphone is written in real time),
/// the window timed on the monotonic clock.
@Suite struct MicrophoneReconnectionTests {
    static let audioPerSecond = CaptureSessionTests.audioPerSecond
    struct Unplugged: Error {}
    struct NotThere: Error {}

    /// On the real clock, with a 3 s limit: a camera that sends every frame, a
    /// microphone that sends its first second and goes, and `reconnection`.
    static func session(reconnection: MicrophoneReconnection) -> CaptureSession {
        let camera = ScriptedCamera(start: MonotonicClock.now(), indexes: Array(0..<90), paced: true, realTime: true)
        return CaptureSession(video: camera, audio: ScriptedMicrophone(startingNow: 1, ending: Unplugged()),
                              frameRate: CaptureSessionTests.rate, limits: RecordingLimits(maxDuration: DurationLimit(parsing: "3")),
                              queue: CaptureQueue(videoCapacity: 10_000, audioCapacity: 10_000),
                              microphoneReconnection: reconnection)
    }

    /// Runs `session` into one movie output; returns it, the outcome and the events.
    static func record(_ session: CaptureSession) throws -> (RecordingOutput, RecordingOutcome, [String]) {
        let movie = RecordingOutput("movie")
        var events: [String] = []
        let outcome = try session.run(outputs: [OutputConnection(output: movie, policy: OutputPolicy(videoCapacity: 200))],
                                      reconnections: { event in
            #expect(event.kind == .audio)
            events.append(CameraReconnectionTests.words(event))
        })
        return (movie, outcome, events)
    }

    @Test func aMicrophoneThatComesBackGoesOnInTheSameMovieWithSilenceOverTheGap() throws {
        // Its first second, then gone; it opens again two seconds in and sends on.
        let started = MonotonicClock.now()
        let tries = Atomic<Int>(0)
        let reconnection = MicrophoneReconnection(window: Rational(30), retryInterval: Rational(1, 100)) {
            tries.add(1, ordering: .sequentiallyConsistent)
            guard MonotonicClock.now() - started >= 2_000_000_000 else { throw NotThere() }
            return ScriptedMicrophone(startingNow: 5)
        }
        let (movie, outcome, events) = try Self.record(Self.session(reconnection: reconnection))
        #expect(events == ["lost scripted microphone: Unplugged()", "back scripted microphone"])
        #expect(tries.load(ordering: .sequentiallyConsistent) > 1)
        // One movie to the limit: every frame, and the sound whole: the first second,
        // silence written in real time while the microphone was gone, then its sound.
        #expect(outcome.reason == .maximumDuration(DurationLimit(parsing: "3")!), "\(outcome.reason)")
        #expect(outcome.error == nil)
        #expect(movie.indexes == Array(0..<90))
        #expect(movie.audioFrames == 3 * Self.audioPerSecond)
        // Written from 1 s to about 0.2 s before the return (2 s, later on a busy machine).
        #expect(outcome.microphoneGapFrames > Self.audioPerSecond / 2 && outcome.microphoneGapFrames < 2 * Self.audioPerSecond,
                "\(outcome.microphoneGapFrames)")
        #expect(outcome.microphoneGaps.map(\.back) == [true] && outcome.microphoneReturns == 1)
        #expect(outcome.microphoneGaps.allSatisfy { $0.seconds >= 1.9 && $0.seconds < 3 && $0.reason == "Unplugged()" },
                "\(outcome.microphoneGaps)")
        #expect(outcome.cameraGaps.isEmpty && outcome.droppedFrames == 0)
    }

    @Test func aMicrophoneThatDoesNotComeBackInTimeEndsTheMovieWithBothStreamsTogether() throws {
        let reconnection = MicrophoneReconnection(window: Rational(3, 10), retryInterval: Rational(1, 100)) { throw NotThere() }
        let (movie, outcome, events) = try Self.record(Self.session(reconnection: reconnection))
        #expect(events == ["lost scripted microphone: Unplugged()", "gave up scripted microphone"])
        guard case .sourceEnded(_, .audio, _)? = outcome.error as? CaptureSessionError else {
            Issue.record("expected the microphone's end, got \(String(describing: outcome.error))")
            return
        }
        // Given up 0.3 s after it went (at once: its second came in one burst); the
        // movie ends there with its sound as long as its picture.
        let count = Int64(movie.indexes.count)
        #expect(movie.indexes == Array(0..<count))
        #expect(count >= 9 && count < 60, "\(count) frames")
        #expect(movie.audioFrames == Self.audioPerSecond * count / 30)
        #expect(outcome.microphoneGaps.map(\.back) == [false])
    }
}
