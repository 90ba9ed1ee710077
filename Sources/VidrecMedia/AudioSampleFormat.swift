/// Sample layouts that audio sources deliver.
public enum AudioSampleFormat: String, Sendable {
    /// Signed 16-bit, interleaved.
    case s16 = "S16_LE"
    /// Signed 32-bit, interleaved.
    case s32 = "S32_LE"
    /// 32-bit float, interleaved.
    case float32 = "FLOAT_LE"

    /// Bytes in one sample of one channel.
    public var bytesPerSample: Int { self == .s16 ? 2 : 4 }
}
