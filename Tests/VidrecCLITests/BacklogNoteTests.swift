import Testing
@testable import VidrecCLI
import VidrecCore

/// What the stop message and `vidrec status` say about encoding that has fallen behind:
/// the frames still to encode before the file ends, once there are more than are in
/// transit anyway.
@Suite struct BacklogNoteTests {
    static func progress(waiting frames: Int64, seconds: Double) -> SessionProgress {
        SessionProgress(elapsed: 10, videoFrames: 300, framesPerSecond: 30, bytes: 1 << 20, droppedFrames: 0,
                        encodingBacklogFrames: frames, encodingBacklog: seconds)
    }

    @Test(arguments: [
        (Int64(0), 0.0, ""),
        (Int64(2), 2.0 / 30, ""),
        (Int64(3), 0.1, ": encoding the last 0.10 s (3 frames) captured before the stop"),
        (Int64(87), 2.9, ": encoding the last 2.90 s (87 frames) captured before the stop"),
    ] as [(Int64, Double, String)])
    func aStopSaysHowMuchIsStillToEncodeOnlyWhenEncodingHasFallenBehind(frames: Int64, seconds: Double, note: String) {
        #expect(BacklogNote.stopping(Self.progress(waiting: frames, seconds: seconds)) == note)
    }

    @Test func statusSaysHowFarEncodingIsBehindOnlyWhenItIs() {
        #expect(BacklogNote.status(Self.progress(waiting: 2, seconds: 2.0 / 30)) == "")
        #expect(BacklogNote.status(Self.progress(waiting: 38, seconds: 3.04)) == ", encoding 3.04 s behind")
    }
}
