/// A source of audio chunks.
public protocol AudioCaptureSource: CaptureSource {
    /// The format chunks arrive in.
    var audioFormat: AudioFormat { get }
}
