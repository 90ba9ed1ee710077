// CFFmpeg: the FFmpeg libraries vidrec uses (5.1 to 7.1), plus prefixed stand-ins for
// the function-like macros that Swift's importer cannot see. What differs between
// FFmpeg versions is in versions.h, and nowhere else.
#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H

#include <errno.h>
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/mathematics.h>
#include <string.h>
#include <libavutil/opt.h>
#include <libavutil/pixdesc.h>
#include <libavutil/samplefmt.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>

#include "versions.h"

/// `AVERROR(e)`: FFmpeg's negative error code for a POSIX errno.
static inline int cffmpeg_averror(int posix_errno) { return AVERROR(posix_errno); }

/// `AVERROR_EOF`: the end-of-stream code returned by the send/receive API.
static inline int cffmpeg_averror_eof(void) { return AVERROR_EOF; }
static inline int cffmpeg_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }

/// `AVERROR(EAGAIN)`: "output is not available in this state", spelled once.
static inline int cffmpeg_averror_eagain(void) { return AVERROR(EAGAIN); }

/// `AV_NOPTS_VALUE`: an unknown timestamp. The macro casts, so Swift cannot import it.
static inline int64_t cffmpeg_nopts_value(void) { return AV_NOPTS_VALUE; }

/// `AV_TIME_BASE_Q`: the microsecond time base as a compound literal.
static inline AVRational cffmpeg_time_base_q(void) { return (AVRational){1, AV_TIME_BASE}; }

/// An `av_log` callback that leaves out what network protocols (tcp, rtmp, libsrt) log
/// as their connection fails, and passes everything else to FFmpeg's own callback.
/// vidrec says in one line of its own when a live stream cannot connect or is lost; the
/// protocols' lines would repeat it at every attempt. A C function because the callback
/// takes a `va_list`.
static void cffmpeg_log_without_protocols(void *context, int level, const char *format, va_list arguments) {
    if (context != NULL && level > AV_LOG_FATAL) {
        const AVClass *class = *(const AVClass **)context;
        if (class != NULL && class->class_name != NULL && strcmp(class->class_name, "URLContext") == 0) return;
    }
    av_log_default_callback(context, level, format, arguments);
}

/// Installs ``cffmpeg_log_without_protocols`` as libav*'s log callback.
static inline void cffmpeg_log_leave_out_protocols(void) { av_log_set_callback(cffmpeg_log_without_protocols); }

#endif
