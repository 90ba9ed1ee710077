/// What `vidrec devices` shows of a microphone (an ALSA capture device).
public struct MicrophoneDescription: Sendable, Equatable {
    /// The PCM name to pass to `--mic`: `hw:1,0`.
    public var name: String
    /// The card (`Loopback`, `HDA Intel PCH`).
    public var card: String
    /// The device's own name.
    public var device: String
    /// Sample rates the hardware takes, lowest and highest (nil if it could not be opened).
    public var rates: ClosedRange<Int>?
    /// Channel counts the hardware takes.
    public var channels: ClosedRange<Int>?
}
