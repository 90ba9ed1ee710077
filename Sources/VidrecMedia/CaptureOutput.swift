/// Where the capture session sends media, as `AVCaptureOutput` is for
/// `AVCaptureSession`: in vidrec, the FFmpeg movie output (a file, segments or events,
/// with a live stream beside it) and the photo output.
///
/// The session decides timing; the output encodes. Video frames carry their index on
/// the output frame grid (time base `1/frameRate`), so a dropped camera frame leaves a
/// gap instead of speeding the movie up; audio is appended contiguously, the session
/// having already trimmed, padded and aligned it to the video.
///
/// An output is driven from one thread at a time: the session hands it to an
/// ``OutputConnection``, whose named thread makes every call, so an output needs no
/// locking of its own.
public protocol CaptureOutput: AnyObject {
    /// A name for messages, such as `movie file /home/me/…/20261130-101500.mp4`.
    var outputName: String { get }

    /// Encodes and writes one video frame at `frameIndex` (strictly increasing).
    func appendVideo(_ frame: VideoFrame, frameIndex: Int64) throws

    /// Encodes and writes audio that directly follows what was appended before.
    func appendAudio(_ chunk: AudioChunk) throws

    /// Flushes the encoders, writes the trailer and closes the file. Called once, also
    /// after an append has thrown (to close what was written so far).
    func finish() throws

    /// Bytes written so far.
    var bytesWritten: Int64 { get }

    /// Where the video written so far ends, in frame slots, when the output knows it
    /// better than by counting appends (an output that writes on a thread of its own);
    /// `nil` by default.
    var writtenVideoEnd: Int64? { get }

    /// Frames offered that the output could not use and left out: compressed frames
    /// that do not decode, or a copied H.264 stream's frames after a lost one up to the
    /// next keyframe. Their slots in the movie are empty. Read after ``finish()``;
    /// none by default.
    var leftOutFrames: Int64 { get }

    /// Outputs behind this one that failed and were left behind, each as
    /// `"name: error"` (an encoder's live stream); none by default.
    var lostOutputs: [String] { get }
}

extension CaptureOutput {
    public var leftOutFrames: Int64 { 0 }
    public var writtenVideoEnd: Int64? { nil }
    public var lostOutputs: [String] { [] }
}
