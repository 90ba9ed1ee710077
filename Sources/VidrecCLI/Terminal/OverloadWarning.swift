import Foundation
import VidrecCore

/// What `start` says, once, the first time encoding falls so far behind the camera that
/// frames are dropped: how many, that the sound is kept, and what keeps every frame.
/// Without it a machine too slow for the preset showed only a count at the end (and
/// nothing at all on a terminal's status line but "dropped").
enum OverloadWarning {
    /// The line for `progress` when it has frames dropped because encoding fell behind;
    /// `nil` otherwise.
    static func line(_ progress: SessionProgress) -> String? {
        guard progress.encodingDroppedFrames > 0 else { return nil }
        let frames = progress.encodingDroppedFrames == 1 ? "1 frame" : "\(progress.encodingDroppedFrames) frames"
        return String(format: "vidrec: warning: encoding cannot keep up with the camera on this machine: %@ dropped by %.1f s "
                      + "(counted; the sound is kept whole); a smaller --quality, or fewer busy programs beside vidrec, keeps every frame",
                      frames, progress.elapsed)
    }
}
