import Foundation
import Testing
@testable import VidrecCLI
import VidrecCore

/// The warning `start` prints once encoding drops frames: only for frames dropped because
/// encoding fell behind (not for frames the camera skipped), with the count, the time and
/// what keeps every frame.
@Suite struct OverloadWarningTests {
    static func progress(dropped: Int64, byEncoding: Int64, at elapsed: Double) -> SessionProgress {
        SessionProgress(elapsed: elapsed, videoFrames: 300, framesPerSecond: 30, bytes: 1 << 20, droppedFrames: dropped,
                        encodingDroppedFrames: byEncoding)
    }

    @Test func nothingIsSaidWhileEncodingKeepsUpEvenWhenTheCameraSkipsFrames() {
        #expect(OverloadWarning.line(Self.progress(dropped: 0, byEncoding: 0, at: 10)) == nil)
        #expect(OverloadWarning.line(Self.progress(dropped: 4, byEncoding: 0, at: 10)) == nil)
    }

    @Test func framesDroppedBecauseEncodingFellBehindAreSaidWithTheFix() {
        #expect(OverloadWarning.line(Self.progress(dropped: 1, byEncoding: 1, at: 3.25))
            == "vidrec: warning: encoding cannot keep up with the camera on this machine: 1 frame dropped by 3.2 s "
            + "(counted; the sound is kept whole); a smaller --quality, or fewer busy programs beside vidrec, keeps every frame")
        let line = OverloadWarning.line(Self.progress(dropped: 20, byEncoding: 17, at: 12))
        #expect(line?.contains(": 17 frames dropped by 12.0 s (") == true, "\(line ?? "nil")")
    }

    @Test func aSnapshotFromAnOlderVidrecWithoutTheCountReadsAsNoneDropped() throws {
        let old = #"{"elapsed":2,"videoFrames":60,"framesPerSecond":30,"bytes":10,"droppedFrames":3}"#
        let progress = try JSONDecoder().decode(SessionProgress.self, from: Data(old.utf8))
        #expect(progress.droppedFrames == 3 && progress.encodingDroppedFrames == 0 && progress.encodingBacklogFrames == 0)
        let new = try JSONDecoder().decode(SessionProgress.self, from: JSONEncoder().encode(Self.progress(dropped: 5, byEncoding: 4, at: 1)))
        #expect(new == Self.progress(dropped: 5, byEncoding: 4, at: 1))
    }
}
