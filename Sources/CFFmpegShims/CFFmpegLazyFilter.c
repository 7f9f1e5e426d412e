// Playhead: libavfilter resolved with dlopen/dlsym on first use (see CFFmpegLazyFilter.h).
// Concurrency: `table` and `loadError` are written only inside load() under pthread_once and
// are read-only afterwards, so any thread may call the wrappers.
#include "CFFmpegLazyFilter.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <libavutil/error.h>
#include <libavutil/macros.h>

#define LIBAVFILTER_SONAME "libavfilter.so." AV_STRINGIFY(LIBAVFILTER_VERSION_MAJOR)

static struct {
    AVFilterGraph *(*graph_alloc)(void);
    void (*graph_free)(AVFilterGraph **);
    const AVFilter *(*get_by_name)(const char *);
    int (*graph_create_filter)(AVFilterContext **, const AVFilter *, const char *, const char *,
                               void *, AVFilterGraph *);
    int (*link)(AVFilterContext *, unsigned, AVFilterContext *, unsigned);
    int (*graph_config)(AVFilterGraph *, void *);
    int (*graph_send_command)(AVFilterGraph *, const char *, const char *, const char *, char *,
                              int, int);
    int (*buffersrc_add_frame_flags)(AVFilterContext *, AVFrame *, int);
    int (*buffersink_get_frame)(AVFilterContext *, AVFrame *);
} table;
static int loaded;
static char loadError[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

#define RESOLVE(field, symbol)                                                                  \
    do {                                                                                        \
        *(void **)&table.field = dlsym(handle, symbol);                                         \
        if (!table.field) {                                                                     \
            snprintf(loadError, sizeof loadError, "%s: no symbol %s", LIBAVFILTER_SONAME, symbol); \
            return;                                                                             \
        }                                                                                       \
    } while (0)

static void load(void) {
    // RTLD_LOCAL keeps its symbols out of the global scope; it is never closed.
    void *handle = dlopen(LIBAVFILTER_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char *message = dlerror();
        snprintf(loadError, sizeof loadError, "%s", message ? message : LIBAVFILTER_SONAME);
        return;
    }
    RESOLVE(graph_alloc, "avfilter_graph_alloc");
    RESOLVE(graph_free, "avfilter_graph_free");
    RESOLVE(get_by_name, "avfilter_get_by_name");
    RESOLVE(graph_create_filter, "avfilter_graph_create_filter");
    RESOLVE(link, "avfilter_link");
    RESOLVE(graph_config, "avfilter_graph_config");
    RESOLVE(graph_send_command, "avfilter_graph_send_command");
    RESOLVE(buffersrc_add_frame_flags, "av_buffersrc_add_frame_flags");
    RESOLVE(buffersink_get_frame, "av_buffersink_get_frame");
    loaded = 1;
}

int CFFmpeg_avfilter_available(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *CFFmpeg_avfilter_load_error(void) {
    pthread_once(&once, load);
    return loadError;
}

AVFilterGraph *CFFmpeg_avfilter_graph_alloc(void) {
    return CFFmpeg_avfilter_available() ? table.graph_alloc() : NULL;
}

void CFFmpeg_avfilter_graph_free(AVFilterGraph **graph) {
    if (CFFmpeg_avfilter_available()) table.graph_free(graph);
}

const AVFilter *CFFmpeg_avfilter_get_by_name(const char *name) {
    return CFFmpeg_avfilter_available() ? table.get_by_name(name) : NULL;
}

int CFFmpeg_avfilter_graph_create_filter(AVFilterContext **context, const AVFilter *filter,
                                         const char *name, const char *args, void *opaque,
                                         AVFilterGraph *graph) {
    if (!CFFmpeg_avfilter_available()) return AVERROR(ENOSYS);
    return table.graph_create_filter(context, filter, name, args, opaque, graph);
}

int CFFmpeg_avfilter_link(AVFilterContext *source, unsigned sourcePad,
                          AVFilterContext *destination, unsigned destinationPad) {
    if (!CFFmpeg_avfilter_available()) return AVERROR(ENOSYS);
    return table.link(source, sourcePad, destination, destinationPad);
}

int CFFmpeg_avfilter_graph_config(AVFilterGraph *graph, void *logContext) {
    if (!CFFmpeg_avfilter_available()) return AVERROR(ENOSYS);
    return table.graph_config(graph, logContext);
}

int CFFmpeg_avfilter_graph_send_command(AVFilterGraph *graph, const char *target,
                                        const char *command, const char *arg, char *response,
                                        int responseLength, int flags) {
    if (!CFFmpeg_avfilter_available()) return AVERROR(ENOSYS);
    return table.graph_send_command(graph, target, command, arg, response, responseLength, flags);
}

int CFFmpeg_av_buffersrc_add_frame_flags(AVFilterContext *context, AVFrame *frame, int flags) {
    if (!CFFmpeg_avfilter_available()) return AVERROR(ENOSYS);
    return table.buffersrc_add_frame_flags(context, frame, flags);
}

int CFFmpeg_av_buffersink_get_frame(AVFilterContext *context, AVFrame *frame) {
    if (!CFFmpeg_avfilter_available()) return AVERROR(ENOSYS);
    return table.buffersink_get_frame(context, frame);
}
