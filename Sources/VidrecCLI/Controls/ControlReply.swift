import Foundation
import VidrecCore

/// A running recording's answer to a ``ControlRequest``, as one JSON line: what was
/// done, or the error in words.
struct ControlReply: Codable, Sendable {
    /// Why the request failed; `nil` when it succeeded.
    var error: String?
    /// The exit code that failure calls for (``ExitCode``).
    var exitCode: Int32?
    /// The photo's size.
    var width: Int?
    var height: Int?
    /// The camera it came from, or now records from, as displayed.
    var camera: String?
    /// The mode a switched-to camera records in.
    var mode: String?
    /// The media time from which the switched-to camera is recorded, in seconds.
    var from: Double?
    /// Whether a pause or a resume changed anything (`false`: it was already so).
    var changed: Bool?
    /// `viewfinder`: the newest picture (a JPEG; base64 in the JSON) and its number,
    /// absent when none newer came within the wait.
    var picture: Data?
    var number: Int64?
    /// `viewfinder`: when the picture's frame was captured (CLOCK_MONOTONIC, ns).
    var captured: Int64?
    /// `viewfinder`: how the recording stands (time, size, drops).
    var progress: SessionProgress?
}
