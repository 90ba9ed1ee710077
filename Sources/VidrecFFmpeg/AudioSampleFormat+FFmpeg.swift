import CFFmpeg
import VidrecMedia

extension AudioSampleFormat {
    /// The interleaved (packed) FFmpeg sample format with the same layout.
    var avSampleFormat: AVSampleFormat {
        switch self {
        case .s16: AV_SAMPLE_FMT_S16
        case .s32: AV_SAMPLE_FMT_S32
        case .float32: AV_SAMPLE_FMT_FLT
        }
    }
}
