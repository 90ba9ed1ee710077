#include "CFFmpegFilters.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define CFFMPEG_STRING2(x) #x
#define CFFMPEG_STRING(x) CFFMPEG_STRING2(x)
static const char library_name[] = "libavfilter.so." CFFMPEG_STRING(LIBAVFILTER_VERSION_MAJOR);

static struct {
    AVFilterGraph *(*graph_alloc)(void);
    void (*graph_free)(AVFilterGraph **);
    const AVFilter *(*get_by_name)(const char *);
    AVFilterContext *(*graph_alloc_filter)(AVFilterGraph *, const AVFilter *, const char *);
    int (*init_str)(AVFilterContext *, const char *);
    int (*link)(AVFilterContext *, unsigned, AVFilterContext *, unsigned);
    int (*graph_config)(AVFilterGraph *, void *);
    int (*buffersink_get_frame)(AVFilterContext *, AVFrame *);
} table;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char failure[512];
static const char *result;

static void *find(void *library, const char *symbol) {
    void *address = dlsym(library, symbol);
    if (address == NULL && failure[0] == 0) {
        const char *text = dlerror();
        snprintf(failure, sizeof failure, "%s", text ? text : symbol);
    }
    return address;
}

static void load(void) {
    // RTLD_LOCAL: the symbols stay out of the global namespace; they are reached
    // through this table only.
    void *library = dlopen(library_name, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *text = dlerror();
        snprintf(failure, sizeof failure, "%s", text ? text : library_name);
        result = failure;
        return;
    }
    table.graph_alloc = find(library, "avfilter_graph_alloc");
    table.graph_free = find(library, "avfilter_graph_free");
    table.get_by_name = find(library, "avfilter_get_by_name");
    table.graph_alloc_filter = find(library, "avfilter_graph_alloc_filter");
    table.init_str = find(library, "avfilter_init_str");
    table.link = find(library, "avfilter_link");
    table.graph_config = find(library, "avfilter_graph_config");
    table.buffersink_get_frame = find(library, "av_buffersink_get_frame");
    // The library stays loaded for the life of the process: graphs may outlive a call.
    result = failure[0] != 0 ? failure : NULL;
}

const char *cffmpeg_filters_load(void) {
    pthread_once(&once, load);
    return result;
}

const char *cffmpeg_filters_library_name(void) { return library_name; }

AVFilterGraph *cffmpeg_filters_graph_alloc(void) { return table.graph_alloc(); }

void cffmpeg_filters_graph_free(AVFilterGraph **graph) { table.graph_free(graph); }

const AVFilter *cffmpeg_filters_get_by_name(const char *name) { return table.get_by_name(name); }

AVFilterContext *cffmpeg_filters_graph_alloc_filter(AVFilterGraph *graph, const AVFilter *filter, const char *name) {
    return table.graph_alloc_filter(graph, filter, name);
}

int cffmpeg_filters_init_str(AVFilterContext *context, const char *arguments) { return table.init_str(context, arguments); }

int cffmpeg_filters_link(AVFilterContext *source, unsigned source_pad, AVFilterContext *destination, unsigned destination_pad) {
    return table.link(source, source_pad, destination, destination_pad);
}

int cffmpeg_filters_graph_config(AVFilterGraph *graph, void *log_context) { return table.graph_config(graph, log_context); }

int cffmpeg_filters_buffersink_get_frame(AVFilterContext *sink, AVFrame *frame) {
    return table.buffersink_get_frame(sink, frame);
}
