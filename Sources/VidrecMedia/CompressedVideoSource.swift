/// A camera whose frames are compressed pictures that can be stored as they are (H.264
/// access units, JPEG images), as `ffmpeg -c:v copy` stores them: the movie output then
/// copies each frame into the file instead of decoding and encoding it.
public protocol CompressedVideoSource: VideoCaptureSource {
    /// The stream's header, once started: H.264's sequence and picture parameter sets
    /// (Annex B, from the camera's first keyframe), empty for JPEG. Waits for the first
    /// keyframe (which the source delivers first) up to `timeout` seconds.
    ///
    /// - Throws: ``DeviceError/stopped(device:reason:)`` when no keyframe came in time.
    func streamHeader(timeout: Double) throws -> [UInt8]

    /// Asks the camera for a keyframe as soon as it can send one (after a frame was
    /// lost, the copied stream waits for the next one); a camera that cannot be asked
    /// sends its next one when its keyframe interval says.
    func requestKeyframe()
}
