import CFFmpeg

/// How much FFmpeg itself prints to standard error.
public enum FFmpegLog {
    /// Sets libav*'s log level: `error` by default, so a recording prints vidrec's own
    /// lines only; `VIDREC_FFMPEG_LOG=info` (or `warning`, `debug`) shows more. Below
    /// `info`, network protocols' messages are left out: vidrec reports a live stream's
    /// failures itself, once, instead of at every attempt to reconnect.
    /// The corresponding C functions are `av_log_set_level` and `av_log_set_callback`.
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
        if level < AV_LOG_INFO { cffmpeg_log_leave_out_protocols() }
    }
}
