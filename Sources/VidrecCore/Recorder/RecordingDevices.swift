import VidrecMedia

/// The capture devices the ``Recorder`` records from: the camera and the microphone,
/// as AVFoundation's capture devices are to a capture session (the movie's outputs come
/// from a ``MovieOutputFactory``, the outputs beside it from the request's
/// ``RecordingFeature``s). The command line gives the real ones (V4L2, ALSA, or the
/// built-in test sources); tests give scripted ones.
public protocol RecordingDevices: AnyObject {
    /// Finds the camera asked for, without opening it.
    ///
    /// - Returns: its device path, or `nil` for a camera that has none (the built-in
    ///   test camera), which is never busy.
    func findCamera() throws -> String?

    /// Opens the camera found by ``findCamera()`` and chooses its mode.
    ///
    /// - Parameter video: the preset's video settings; adjusted to what the camera can
    ///   do (a slower frame rate, the fit of another aspect ratio).
    func openCamera(adjusting video: inout VideoEncoding) throws -> OpenedCamera

    /// Opens the microphone asked for, for `audio`; `nil` for none (`--mic none`, or a
    /// preset without audio).
    func openMicrophone(for audio: AudioEncoding?) throws -> (any AudioCaptureSource)?
}
