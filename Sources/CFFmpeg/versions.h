// CFFmpeg's version shims: the one place that asks which FFmpeg the headers are.
//
// vidrec builds against FFmpeg 5.1 (Debian 12: libavformat 59, libavcodec 59) up to
// 7.1 (Debian 13: libavformat 61, libavcodec 61). Each function below does one thing
// the two spell differently, keyed on the libraries' own version macros at the version
// that introduced the newer spelling, so that the newer build uses no deprecated API.
// Swift code calls these and never tests a version itself.
#ifndef CFFMPEG_VERSIONS_H
#define CFFMPEG_VERSIONS_H

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavformat/avio.h>
#include <libavutil/avutil.h>

// The floor: AVChannelLayout (FFmpeg 5.1) is used everywhere, and the old channel
// fields are gone in FFmpeg 7.
#if LIBAVCODEC_VERSION_INT < AV_VERSION_INT(59, 37, 100)
#error "vidrec needs FFmpeg 5.1 or later (libavcodec 59.37): Debian 12 (bookworm) or later, with libavcodec-dev, libavformat-dev and libavutil-dev installed"
#endif

/// The write callback of a custom AVIOContext. Its buffer is `const` from libavformat
/// 61 (FFmpeg 7.0) on; vidrec's callbacks are written against this, newer, signature.
typedef int (*cffmpeg_avio_write_callback)(void *opaque, const uint8_t *buffer, int size);

/// `avio_alloc_context` for writing, with no read callback: `write` gets each buffer
/// to write, `seek` moves the write position.
///
/// Before libavformat 61 the callback's buffer was declared without `const`; the
/// pointer is passed the same way and vidrec never writes through it, so the function
/// is handed over as the older type.
static inline AVIOContext *cffmpeg_avio_alloc_write_context(unsigned char *buffer, int size, void *opaque,
                                                            cffmpeg_avio_write_callback write,
                                                            int64_t (*seek)(void *opaque, int64_t offset, int whence)) {
#if LIBAVFORMAT_VERSION_MAJOR >= 61
    return avio_alloc_context(buffer, size, 1, opaque, NULL, write, seek);
#else
    return avio_alloc_context(buffer, size, 1, opaque, NULL, (int (*)(void *, uint8_t *, int))write, seek);
#endif
}

/// The size of a display matrix: nine `int32_t`, as `av_display_rotation_set` fills.
static const size_t cffmpeg_display_matrix_size = 9 * sizeof(int32_t);

/// Adds a display matrix (nine `int32_t`, as `av_display_rotation_set` fills) to a
/// stream's side data and returns it, or NULL when out of memory.
///
/// From libavcodec 60.31 (FFmpeg 6.1) on, stream side data lives in the codec
/// parameters (`codecpar->coded_side_data`, `av_packet_side_data_new`); before, in the
/// stream (`av_stream_new_side_data`).
static inline int32_t *cffmpeg_stream_new_display_matrix(AVStream *stream) {
    const size_t size = cffmpeg_display_matrix_size;
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 31, 100)
    AVPacketSideData *entry = av_packet_side_data_new(&stream->codecpar->coded_side_data,
                                                      &stream->codecpar->nb_coded_side_data,
                                                      AV_PKT_DATA_DISPLAYMATRIX, size, 0);
    return entry != NULL ? (int32_t *)entry->data : NULL;
#else
    return (int32_t *)av_stream_new_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, size);
#endif
}

/// The display matrix in a stream's side data (nine `int32_t`), or NULL when it has
/// none or the entry is too short to be one.
///
/// Where it lives by version: see ``cffmpeg_stream_new_display_matrix``.
static inline const int32_t *cffmpeg_stream_display_matrix(const AVStream *stream) {
    const size_t size = cffmpeg_display_matrix_size;
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 31, 100)
    const AVPacketSideData *entry = av_packet_side_data_get(stream->codecpar->coded_side_data,
                                                            stream->codecpar->nb_coded_side_data,
                                                            AV_PKT_DATA_DISPLAYMATRIX);
    return entry != NULL && entry->size >= size ? (const int32_t *)entry->data : NULL;
#else
    size_t found = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &found);
    return data != NULL && found >= size ? (const int32_t *)data : NULL;
#endif
}

/// The first sample format an audio encoder takes, or `AV_SAMPLE_FMT_NONE` when it
/// names none (it takes any), or on an error.
///
/// From libavcodec 61.13 (FFmpeg 7.1) on, an encoder's formats come from
/// `avcodec_get_supported_config`; before, from `AVCodec.sample_fmts`.
static inline enum AVSampleFormat cffmpeg_encoder_first_sample_format(const AVCodecContext *context, const AVCodec *codec) {
#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(61, 13, 100)
    const void *formats = NULL;
    int count = 0;
    if (avcodec_get_supported_config(context, codec, AV_CODEC_CONFIG_SAMPLE_FORMAT, 0, &formats, &count) < 0
        || formats == NULL || count == 0) {
        return AV_SAMPLE_FMT_NONE;
    }
    return ((const enum AVSampleFormat *)formats)[0];
#else
    (void)context;
    return codec->sample_fmts != NULL ? codec->sample_fmts[0] : AV_SAMPLE_FMT_NONE;
#endif
}

#endif
