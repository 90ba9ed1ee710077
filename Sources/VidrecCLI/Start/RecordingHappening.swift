import Foundation
import VidrecCore

/// Something that happened to a recording, besides a saved file, that the parts of its
/// features which follow it (``FollowUp``, such as the hooks) hear of.
enum RecordingHappening: Sendable {
    /// The recording started, with its ID, from `camera` (its first source).
    case started(id: String, camera: String)
    /// An event of a recording waiting for triggers began: its file (pending `id`, the
    /// `index`th from 0) opened, with media from `start` on.
    case eventStarted(index: Int, id: String, start: Date)
    /// An event ended: its file closed (saved or not, as the report says).
    case eventEnded(SegmentReport)
    /// The camera went away mid-recording; the recording waits for it (`--reconnect`).
    case cameraGone(camera: String, reason: String)
    /// The camera that went came back after `after` seconds; the recording goes on.
    case cameraBack(camera: String, after: Double)
    /// The microphone went away mid-recording; the recording waits for it, with
    /// silence (`--reconnect`).
    case microphoneGone(microphone: String, reason: String)
    /// The microphone that went came back after `after` seconds.
    case microphoneBack(microphone: String, after: Double)
    /// The recording was paused (`true`) or resumed (`false`).
    case paused(Bool)
    /// The recording ended with an error, or could not start: the one-line reason and
    /// the exit code the command ends with.
    case failed(reason: String, exitCode: Int32)
}
