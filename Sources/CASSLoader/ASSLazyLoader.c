// Playhead: libass loaded on first use instead of at process start.
//
// The binary is not linked against libass: each libass function OpenAVKit calls is defined
// here with libass's prototype (from <ass/ass.h>) and forwards to the real function, resolved
// with dlopen/dlsym by the first call. When the library cannot be loaded every stub fails the
// way libass reports failure (NULL or nothing) and `playhead_ass_load_error()` says why, so
// the window falls back to its plain text renderer instead of crashing.
//
// Concurrency: the pointers are written once inside load() under pthread_once and are
// read-only afterwards, so any thread may call the stubs.
#include "CASSLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char loadError[256] = "";

// One entry per function: its result type, name, parameters with names, the arguments, and
// what the stub returns when the library is missing.
#define ASS_FUNCTIONS(X, V) \
    X(int, ass_library_version, (void), (), 0) \
    X(ASS_Library *, ass_library_init, (void), (), NULL) \
    V(ass_library_done, (ASS_Library *priv), (priv)) \
    V(ass_set_extract_fonts, (ASS_Library *priv, int extract), (priv, extract)) \
    V(ass_set_message_cb, \
        (ASS_Library *priv, void (*msg_cb)(int level, const char *fmt, va_list args, void *data), void *data), \
        (priv, msg_cb, data)) \
    V(ass_add_font, (ASS_Library *library, const char *name, const char *data, int data_size), \
        (library, name, data, data_size)) \
    V(ass_clear_fonts, (ASS_Library *library), (library)) \
    X(ASS_Renderer *, ass_renderer_init, (ASS_Library *library), (library), NULL) \
    V(ass_renderer_done, (ASS_Renderer *priv), (priv)) \
    V(ass_set_frame_size, (ASS_Renderer *priv, int w, int h), (priv, w, h)) \
    V(ass_set_storage_size, (ASS_Renderer *priv, int w, int h), (priv, w, h)) \
    V(ass_set_margins, (ASS_Renderer *priv, int t, int b, int l, int r), (priv, t, b, l, r)) \
    V(ass_set_use_margins, (ASS_Renderer *priv, int use), (priv, use)) \
    V(ass_set_pixel_aspect, (ASS_Renderer *priv, double par), (priv, par)) \
    V(ass_set_font_scale, (ASS_Renderer *priv, double font_scale), (priv, font_scale)) \
    V(ass_set_hinting, (ASS_Renderer *priv, ASS_Hinting ht), (priv, ht)) \
    V(ass_set_line_position, (ASS_Renderer *priv, double line_position), (priv, line_position)) \
    V(ass_set_fonts, \
        (ASS_Renderer *priv, const char *default_font, const char *default_family, int dfp, \
            const char *config, int update), \
        (priv, default_font, default_family, dfp, config, update)) \
    V(ass_set_selective_style_override_enabled, (ASS_Renderer *priv, int bits), (priv, bits)) \
    V(ass_set_selective_style_override, (ASS_Renderer *priv, ASS_Style *style), (priv, style)) \
    V(ass_set_cache_limits, (ASS_Renderer *priv, int glyph_max, int bitmap_max_size), \
        (priv, glyph_max, bitmap_max_size)) \
    X(ASS_Image *, ass_render_frame, \
        (ASS_Renderer *priv, ASS_Track *track, long long now, int *detect_change), \
        (priv, track, now, detect_change), NULL) \
    X(ASS_Track *, ass_new_track, (ASS_Library *library), (library), NULL) \
    V(ass_free_track, (ASS_Track *track), (track)) \
    V(ass_process_codec_private, (ASS_Track *track, char *data, int size), (track, data, size)) \
    V(ass_process_chunk, \
        (ASS_Track *track, char *data, int size, long long timecode, long long duration), \
        (track, data, size, timecode, duration)) \
    V(ass_set_check_readorder, (ASS_Track *track, int check_readorder), (track, check_readorder)) \
    V(ass_flush_events, (ASS_Track *track), (track))

#define DECLARE(result, name, parameters, arguments, failure) static result(*real_##name) parameters;
#define DECLARE_VOID(name, parameters, arguments) static void(*real_##name) parameters;
ASS_FUNCTIONS(DECLARE, DECLARE_VOID)

static void load(void) {
    void *library = dlopen("libass.so.9", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(loadError, sizeof loadError, "cannot load libass.so.9: %s", dlerror());
        return;
    }
#define RESOLVE(result, name, parameters, arguments, failure) \
    if (!(real_##name = (result(*) parameters)dlsym(library, #name))) { \
        snprintf(loadError, sizeof loadError, "libass.so.9 lacks %s", #name); \
        return; \
    }
#define RESOLVE_VOID(name, parameters, arguments) RESOLVE(void, name, parameters, arguments, )
    ASS_FUNCTIONS(RESOLVE, RESOLVE_VOID)
    loaded = 1;
}

int playhead_ass_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *playhead_ass_load_error(void) {
    playhead_ass_load();
    return loadError;
}

#define STUB(result, name, parameters, arguments, failure) \
    result name parameters { \
        if (!playhead_ass_load()) return failure; \
        return real_##name arguments; \
    }
#define STUB_VOID(name, parameters, arguments) \
    void name parameters { \
        if (!playhead_ass_load()) return; \
        real_##name arguments; \
    }
ASS_FUNCTIONS(STUB, STUB_VOID)

static void quiet(int level, const char *format, va_list arguments, void *data) {
    (void)data;
    if (level > 1) return;
    fputs("playhead: subtitles: ", stderr);
    vfprintf(stderr, format, arguments);
    fputc('\n', stderr);
}

void playhead_ass_quiet_messages(ASS_Library *library) {
    if (library) ass_set_message_cb(library, quiet, NULL);
}
