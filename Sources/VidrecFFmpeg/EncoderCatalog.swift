import CFFmpeg
import VidrecMedia

/// Which encoders this FFmpeg build has, for checking presets before recording.
public struct EncoderCatalog: Sendable {
    /// Creates a catalog.
    public init() {}

    /// Whether an encoder called `name` exists and encodes `kind`.
    /// The corresponding C function is `avcodec_find_encoder_by_name`.
    public func has(_ name: String, kind: MediaKind) -> Bool {
        guard let codec = avcodec_find_encoder_by_name(name) else { return false }
        return codec.pointee.type == (kind == .video ? AVMEDIA_TYPE_VIDEO : AVMEDIA_TYPE_AUDIO)
    }

    /// Whether `name` is a pixel format libavutil knows.
    public func hasPixelFormat(_ name: String) -> Bool { av_get_pix_fmt(name) != AV_PIX_FMT_NONE }

    /// The FFmpeg libraries' version, for `vidrec --version`.
    public var ffmpegVersion: String { String(cString: av_version_info()) }
}
