import VidrecMedia

/// How a recording outlives a camera that goes away (`--reconnect`): the movie waits,
/// with its sound kept, for up to its window; a camera that comes back in time (the
/// same camera in the same mode) goes on in the same file, and the slots it missed hold
/// its last picture.
public typealias CameraReconnection = DeviceReconnection<any VideoCaptureSource>
