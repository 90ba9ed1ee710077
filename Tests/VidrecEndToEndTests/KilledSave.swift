import Foundation
import Glibc
import Testing

/// `vidrec save` killed with SIGKILL at a different moment each round, until a round
/// lets it finish: after every kill the recording must be whole in exactly one place.
enum KilledSave {
    /// Kills saves of the newest pending recording of `home` into `album`, `delays`
    /// seconds after each starts (the moment of the kill, not a wait for something: the
    /// checks hold whatever the moment hits), then saves for real if none got through.
    static func expectWholeInOnePlace(home: Home, album: String, delays: [Double],
                                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let original = try #require(home.files(in: home.pending, ending: ".mp4").first, sourceLocation: sourceLocation)
        let frames = try Probe.decodedFrameCount(original)
        var saved = false
        for delay in delays where !saved {
            let save = try VidrecProcess(["save", "--album", album], home: home.path)
            Thread.sleep(forTimeInterval: delay)
            save.signal(SIGKILL)
            _ = save.wait()
            // Across file systems a kill can fall between the copy taking its name in the
            // album and the pending file's removal; the next command that reads the
            // pending area finishes that save (the copy's identity is noted before).
            let listed = try VidrecProcess.run(["pending"], home: home.path)
            #expect(listed.code == 0 || listed.code == 66, "\(listed.err)", sourceLocation: sourceLocation)
            let inAlbum = home.files(in: album, ending: ".mp4")
            let pending = home.files(in: home.pending, ending: ".mp4")
            // Either still pending, or whole in the album; never both, never neither.
            #expect(inAlbum.count + pending.count == 1, "album \(inAlbum), pending \(pending)", sourceLocation: sourceLocation)
            if let file = inAlbum.first {
                #expect(try Probe.decodedFrameCount(file) == frames, sourceLocation: sourceLocation)
                saved = true
            }
        }
        if !saved {
            let save = try VidrecProcess.run(["save", "--album", album], home: home.path)
            #expect(save.code == 0, "\(save.err)", sourceLocation: sourceLocation)
        }
        #expect(home.files(in: album, ending: ".mp4").count == 1, sourceLocation: sourceLocation)
        let hidden = try FileManager.default.contentsOfDirectory(atPath: album).filter { $0.hasPrefix(".") && $0 != ".thumbnails" }
        #expect(hidden.isEmpty, "no abandoned hidden copy or claim: \(hidden)", sourceLocation: sourceLocation)
    }
}
