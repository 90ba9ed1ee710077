/// Where the capture session sends media: in vidrec, the FFmpeg movie file output.
///
/// The session decides timing; the sink encodes. Video frames carry their index on
/// the output frame grid (time base `1/frameRate`), so a dropped camera frame leaves a
/// gap instead of speeding the movie up; audio is appended contiguously, the session
/// having already trimmed, padded and aligned it to the video.
public protocol MovieSink: AnyObject {
    /// Encodes and writes one video frame at `frameIndex` (strictly increasing).
    func appendVideo(_ frame: VideoFrame, frameIndex: Int64) throws

    /// Encodes and writes audio that directly follows what was appended before.
    func appendAudio(_ chunk: AudioChunk) throws

    /// Flushes the encoders, writes the trailer and closes the file. Call once.
    func finish() throws

    /// Bytes written to the file so far.
    var bytesWritten: Int64 { get }
}
