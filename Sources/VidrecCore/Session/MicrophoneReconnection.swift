import VidrecMedia

/// How a recording outlives a microphone that goes away (`--reconnect`): the movie goes
/// on with silence in real time for up to its window; a microphone that comes back in
/// time (the same one, in the same format) goes on in the same file, its sound placed
/// by its capture times again.
public typealias MicrophoneReconnection = DeviceReconnection<any AudioCaptureSource>
