/// Which of a camera's modes ``CameraDiscovery`` asks the driver for.
public enum ModeListing: Sendable {
    /// Every format's sizes and rates, for `vidrec devices`.
    case all
    /// The sizes and rates of the formats vidrec reads (``VidrecMedia/PixelFormat``)
    /// only; the other formats are named in ``CameraDescription/formats``. Choosing a
    /// recording's mode needs no more, and the camera starts sooner: vivid offers 84
    /// formats, and asking for the rates of all their sizes takes about 4,000 ioctls.
    case readable
}
