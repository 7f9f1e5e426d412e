// Playhead: libavfilter loaded on first use (dlopen) instead of at process start.
//
// libavfilter and the ~30 libraries only it needs (flite, rubberband, placebo, lapack...) cost
// about 20 ms of symbol binding in the dynamic linker at every process start, while Playhead
// uses it only for atempo at rates other than 1×. These wrappers have libavfilter's
// signatures; the first call loads the library once (thread-safe, pthread_once).
// Concurrency: the resolved function table is written once under pthread_once and read-only after.
#ifndef PLAYHEAD_CFFMPEG_LAZY_FILTER_H
#define PLAYHEAD_CFFMPEG_LAZY_FILTER_H

#include <libavfilter/avfilter.h>
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>

/// 1 when libavfilter could be loaded and every function below resolved (loads it on first call).
int CFFmpeg_avfilter_available(void);
/// The dlerror() text of a failed load ("" when it loaded).
const char *CFFmpeg_avfilter_load_error(void);

// Each returns NULL / AVERROR(ENOSYS) (frees nothing) when libavfilter is unavailable.
AVFilterGraph *CFFmpeg_avfilter_graph_alloc(void);
void CFFmpeg_avfilter_graph_free(AVFilterGraph **graph);
const AVFilter *CFFmpeg_avfilter_get_by_name(const char *name);
int CFFmpeg_avfilter_graph_create_filter(AVFilterContext **context, const AVFilter *filter,
                                         const char *name, const char *args, void *opaque,
                                         AVFilterGraph *graph);
int CFFmpeg_avfilter_link(AVFilterContext *source, unsigned sourcePad,
                          AVFilterContext *destination, unsigned destinationPad);
int CFFmpeg_avfilter_graph_config(AVFilterGraph *graph, void *logContext);
int CFFmpeg_avfilter_graph_send_command(AVFilterGraph *graph, const char *target,
                                        const char *command, const char *arg, char *response,
                                        int responseLength, int flags);
int CFFmpeg_av_buffersrc_add_frame_flags(AVFilterContext *context, AVFrame *frame, int flags);
int CFFmpeg_av_buffersink_get_frame(AVFilterContext *context, AVFrame *frame);

#endif
