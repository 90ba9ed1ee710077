import VidrecMedia

/// What a capture session produced.
public struct RecordingOutcome: Sendable {
    /// Why it ended.
    public var reason: EndReason
    /// The error behind a `.failed` reason, for choosing an exit code.
    public var error: (any Error)?
    /// Video frames written.
    public var videoFrames: Int64
    /// Audio frames (samples per channel) written, at the source's rate.
    public var audioFrames: Int64
    /// Duration of the video stream: frame slots up to and including the last frame.
    public var duration: Rational
    /// Frames the camera skipped (gaps in the frame grid or sequence numbers).
    public var droppedFrames: Int64
    /// Frames vidrec itself dropped because the encoder could not keep up (in the
    /// capture queue or in the movie output's queue).
    public var queueDroppedFrames: Int64
    /// Frames the device reported skipping (sequence-number jumps).
    public var deviceSkippedFrames: Int64
    /// The camera's frames the movie left out: undecodable, or (a copied H.264 stream)
    /// after a lost frame up to the next keyframe. Not in ``videoFrames``.
    public var undecodableFrames: Int64 = 0
    /// The camera's frames left out because no slot was free for them: it delivered
    /// more than the frame rate holds (see ``Timeline/surplusFrames``). Not in
    /// ``videoFrames``.
    public var surplusFrames: Int64 = 0
    /// The camera's frames left out while paused (``CaptureSession/pause()``): not
    /// recorded, and not drops.
    public var pausedFrames: Int64 = 0
    /// Dropped slots at the very end that hold a repeat of the last frame.
    public var repeatedFrames: Int64
    /// The movie's time 0 on CLOCK_MONOTONIC, in nanoseconds: the first frame's capture
    /// time, which every frame and every sample is placed against; `nil` without a frame.
    public var clockOrigin: Int64?
    /// Slots between a camera switch and the new camera's first frame, holding a
    /// repeat of the old camera's last frame (counted in ``videoFrames``).
    public var switchFilledFrames: Int64 = 0
    /// Slots that held the last picture while the camera was gone and until it came
    /// back (``CameraReconnection``; counted in ``videoFrames``), and how often it came
    /// back.
    public var cameraGapFrames: Int64 = 0
    public var cameraReturns = 0
    /// When the camera went and how long it stayed away, each time.
    public var cameraGaps: [DeviceGap] = []
    /// Audio frames of silence written for the microphone while it was gone, in real
    /// time (``MicrophoneReconnection``; not in ``insertedSilence``); the sound it
    /// sends once back is placed by its capture times, after up to
    /// ``Timeline/silenceLag`` more.
    public var microphoneGapFrames: Int64 = 0
    /// When the microphone went and how long it stayed away, each time.
    public var microphoneGaps: [DeviceGap] = []
    /// How often the microphone came back.
    public var microphoneReturns: Int { microphoneGaps.filter(\.back).count }
    /// Audio frames of silence inserted for gaps in the microphone's stream.
    public var insertedSilence: Int64
    /// Audio frames of silence appended at the end because the microphone had not
    /// delivered up to the video's end within its grace time (a stalled or very late
    /// microphone): the movie's streams still end together.
    public var closingSilence: Int64 = 0
    /// Audio frames the drift correction added (positive) or removed (negative) by
    /// resampling, to keep a microphone whose clock drifts in step with the video.
    public var stretchedAudio: Int64 = 0
    /// Audio frames the sound was moved by in its first seconds because its start was
    /// dated wrong: silence inserted (positive) or sound left out (negative).
    public var movedSoundStart: Int64 = 0
    /// Audio frames dropped: by the capture queue when it was full, or where the
    /// microphone's timestamps jumped back.
    public var droppedAudio: Int64 = 0
    /// Bytes in the file.
    public var bytes: Int64
    /// Outputs beside the movie that failed and were left behind, each as
    /// "name: error".
    public var lostOutputs: [String] = []
}
