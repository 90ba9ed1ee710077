/// Which of a camera's modes ``CameraDiscovery`` asks the driver for.
public enum ModeListing: Sendable {
    /// Every format's sizes and rates, for `vidrec devices`.
    case all
    /// The sizes and rates of the formats vidrec reads (``VidrecMedia/PixelFormat``)
    /// only; the other formats are named in ``CameraDescription/formats``. Choosing a
    /// recording's mode needs no more, and the camera starts sooner: vivid offers dozens
    /// of formats, and asking for the rates of every size of each takes about 4,000
    /// ioctls (0.15 s in the test VM, against 0.06 s for the formats vidrec reads).
    case readable
}
