import Foundation

/// A time the camera or the microphone was gone while the recording waited for it
/// (`--reconnect`): when it went and how long it stayed away, on the wall clock, for
/// people (the movie keeps its own time: its slots held the last picture, its sound
/// silence). In the sidecar's `cameraGaps` and `microphoneGaps`:
/// `{"start": "2026-12-06T12:03:04.250Z", "seconds": 5.2, "back": true,
/// "reason": "it sent nothing for 5 s"}`.
public struct DeviceGap: Sendable, Codable, Equatable {
    /// When the device went, in ISO 8601 (UTC, to the millisecond).
    public var start: String
    /// How long it was gone, in seconds.
    public var seconds: Double
    /// Whether it came back (else the recording ended while it was gone).
    public var back: Bool
    /// Why it went, in the words of the log's "is gone" line: the device disappeared or
    /// failed, or it sent nothing for the stall timeout; `nil` in a gap read back from
    /// an older sidecar.
    public var reason: String?
    /// When it went; `nil` in a gap read back from a sidecar.
    public var startTime: Date?

    /// A gap from `start`, `seconds` long, for `reason`; `back`: whether the device came
    /// back.
    public init(start: Date, seconds: Double, back: Bool, reason: String? = nil) {
        self.start = DateText.iso8601(start, milliseconds: true)
        startTime = start
        self.seconds = seconds
        self.back = back
        self.reason = reason
    }

    private enum CodingKeys: String, CodingKey { case start, seconds, back, reason }
}
