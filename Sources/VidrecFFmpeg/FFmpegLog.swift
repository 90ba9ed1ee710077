import CFFmpeg

/// How much FFmpeg itself prints to standard error.
public enum FFmpegLog {
    /// Sets libav*'s log level: `error` by default, so a recording prints vidrec's own
    /// lines only; `VIDREC_FFMPEG_LOG=info` (or `warning`, `debug`) shows more.
    /// The corresponding C function is `av_log_set_level`.
    public static func configure(level name: String?) {
        let level: Int32 = switch name {
        case "quiet": AV_LOG_QUIET
        case "warning": AV_LOG_WARNING
        case "info": AV_LOG_INFO
        case "verbose": AV_LOG_VERBOSE
        case "debug": AV_LOG_DEBUG
        default: AV_LOG_ERROR
        }
        av_log_set_level(level)
    }
}
