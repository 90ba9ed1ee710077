// CFFmpegFilters: libavfilter, loaded only when a filter graph is made.
//
// libavfilter and the libraries it needs (speech synthesis voices, SVG and font
// rendering, ...) are about 12 MB of resident memory and a third of the libraries a
// process would load at start. Only `vidrec sheet` uses filters, so vidrec does not
// link libavfilter: the first graph loads it with `dlopen`, and these functions call
// through the symbols found there.
#ifndef CFFMPEGFILTERS_H
#define CFFMPEGFILTERS_H

#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>

/// Loads libavfilter (`dlopen` of the major version the headers name) and finds the
/// functions below, once per process. Returns NULL when they can be called, or the
/// loader's text for why not (the same text on every later call).
const char *cffmpeg_filters_load(void);

/// The soname loaded, such as `libavfilter.so.8`, for error messages.
const char *cffmpeg_filters_library_name(void);

/// `avfilter_graph_alloc`. Call only after `cffmpeg_filters_load` returned NULL.
AVFilterGraph *cffmpeg_filters_graph_alloc(void);

/// `avfilter_graph_free`.
void cffmpeg_filters_graph_free(AVFilterGraph **graph);

/// `avfilter_get_by_name`.
const AVFilter *cffmpeg_filters_get_by_name(const char *name);

/// `avfilter_graph_alloc_filter`.
AVFilterContext *cffmpeg_filters_graph_alloc_filter(AVFilterGraph *graph, const AVFilter *filter, const char *name);

/// `avfilter_init_str`.
int cffmpeg_filters_init_str(AVFilterContext *context, const char *arguments);

/// `avfilter_link`.
int cffmpeg_filters_link(AVFilterContext *source, unsigned source_pad, AVFilterContext *destination, unsigned destination_pad);

/// `avfilter_graph_config`.
int cffmpeg_filters_graph_config(AVFilterGraph *graph, void *log_context);

/// `av_buffersink_get_frame`.
int cffmpeg_filters_buffersink_get_frame(AVFilterContext *sink, AVFrame *frame);

#endif
