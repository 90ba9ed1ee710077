import Foundation
import VidrecCore

/// What `start` and `status` say when encoding has fallen behind the camera: the frames
/// captured and still waiting for the movie's encoder, which a stop encodes before the
/// file ends (so finishing takes a while on a machine that cannot keep up).
enum BacklogNote {
    /// Frames waiting from which it is worth saying: fewer are in transit on any machine.
    static let framesWorthSaying: Int64 = 3

    /// What the stop message adds: `: encoding the last 2.90 s (87 frames) captured
    /// before the stop`, or nothing.
    static func stopping(_ progress: SessionProgress) -> String {
        guard progress.encodingBacklogFrames >= framesWorthSaying else { return "" }
        return String(format: ": encoding the last %.2f s (%lld frames) captured before the stop",
                      progress.encodingBacklog, progress.encodingBacklogFrames)
    }

    /// What `vidrec status` adds: `, encoding 2.90 s behind`, or nothing.
    static func status(_ progress: SessionProgress) -> String {
        guard progress.encodingBacklogFrames >= framesWorthSaying else { return "" }
        return String(format: ", encoding %.2f s behind", progress.encodingBacklog)
    }
}
