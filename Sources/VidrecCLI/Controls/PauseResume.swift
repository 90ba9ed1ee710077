import VidrecSystem

/// `vidrec pause [ID]` and `vidrec resume [ID]`: a running recording leaves out what is
/// captured until it is resumed, and its movie goes on from where it paused
/// (``Recorder/pause()``, ``Recorder/resume()``).
enum PauseResume {
    /// `vidrec pause [ID]`.
    enum Pause: RecordingControl {
        static let request = ControlName.pause

        static let spec = CommandSpec(
            name: request.rawValue,
            abstract: "Pause a running recording until 'vidrec resume'.",
            discussion: "Nothing is recorded while paused, and the movie has no gap: when it resumes, both streams go on from where they paused. --max counts only recorded time. The camera and microphone stay open, so resuming is at once. A recording that is stopped while paused is finished as usual. A camera's own H.264, stored as it is (--video copy), cannot be paused.",
            arguments: [RunningRecording.idArgument.spec])

        static let start = "vidrec start"

        static func answer(_ request: ControlRequest, _ recording: ControlledRecording) throws -> ControlReply {
            let changed = try recording.recorder.pause()
            if changed { recording.warn("vidrec: paused\n") }
            return ControlReply(changed: changed)
        }

        static func said(_ reply: ControlReply, id: String) -> String {
            reply.changed == false ? "recording \(id) is already paused" : "paused \(id)"
        }
    }

    /// `vidrec resume [ID]`.
    enum Resume: RecordingControl {
        static let request = ControlName.resume

        static let spec = CommandSpec(
            name: request.rawValue,
            abstract: "Resume a paused recording.",
            discussion: "Both streams go on from where they paused: the first frame captured from now on follows the last one recorded.",
            arguments: [RunningRecording.idArgument.spec])

        static let start = "vidrec start"

        static func answer(_ request: ControlRequest, _ recording: ControlledRecording) throws -> ControlReply {
            let changed = try recording.recorder.resume()
            if changed { recording.warn("vidrec: resumed\n") }
            return ControlReply(changed: changed)
        }

        static func said(_ reply: ControlReply, id: String) -> String {
            reply.changed == false ? "recording \(id) is not paused" : "resumed \(id)"
        }
    }
}
