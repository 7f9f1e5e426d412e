// Playhead: PulseAudio's client library loaded on first use instead of at process start.
//
// The binary is not linked against libpulse (which maps about a dozen more libraries: D-Bus,
// systemd, libsndfile, X11): each libpulse function OpenAVKit calls is defined here with
// libpulse's own prototype (the compiler checks each against <pulse/pulseaudio.h>) and
// forwards to the real function, resolved with dlopen/dlsym by the first call. A run without
// sound never maps the library. When it cannot be loaded, every stub fails the way libpulse
// reports failure (NULL, a negative number, or nothing), and `playhead_pulse_load_error()`
// says why, so callers fall back to another output instead of crashing.
//
// Concurrency: the pointers are written once inside load() under pthread_once and are
// read-only afterwards, so any thread may call the stubs.
#include "CPulseLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <pulse/pulseaudio.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char loadError[256] = "";

// One entry per function: its result type, name, parameters with names, the arguments, and
// what the stub returns when the library is missing.
#define PULSE_FUNCTIONS(X, V) \
    X(pa_threaded_mainloop *, pa_threaded_mainloop_new, (void), (), NULL) \
    V(pa_threaded_mainloop_free, (pa_threaded_mainloop *m), (m)) \
    X(int, pa_threaded_mainloop_start, (pa_threaded_mainloop *m), (m), -1) \
    V(pa_threaded_mainloop_stop, (pa_threaded_mainloop *m), (m)) \
    V(pa_threaded_mainloop_lock, (pa_threaded_mainloop *m), (m)) \
    V(pa_threaded_mainloop_unlock, (pa_threaded_mainloop *m), (m)) \
    V(pa_threaded_mainloop_wait, (pa_threaded_mainloop *m), (m)) \
    V(pa_threaded_mainloop_signal, (pa_threaded_mainloop *m, int wait_for_accept), (m, wait_for_accept)) \
    X(pa_mainloop_api *, pa_threaded_mainloop_get_api, (pa_threaded_mainloop *m), (m), NULL) \
    X(pa_context *, pa_context_new, (pa_mainloop_api *mainloop, const char *name), (mainloop, name), NULL) \
    X(int, pa_context_connect, \
        (pa_context *c, const char *server, pa_context_flags_t flags, const pa_spawn_api *api), \
        (c, server, flags, api), -1) \
    V(pa_context_disconnect, (pa_context *c), (c)) \
    V(pa_context_unref, (pa_context *c), (c)) \
    X(pa_context_state_t, pa_context_get_state, (const pa_context *c), (c), PA_CONTEXT_FAILED) \
    V(pa_context_set_state_callback, (pa_context *c, pa_context_notify_cb_t cb, void *userdata), (c, cb, userdata)) \
    X(int, pa_context_errno, (const pa_context *c), (c), PA_ERR_NOTSUPPORTED) \
    X(pa_operation *, pa_context_get_sink_info_list, (pa_context *c, pa_sink_info_cb_t cb, void *userdata), \
        (c, cb, userdata), NULL) \
    X(pa_operation *, pa_context_get_server_info, (pa_context *c, pa_server_info_cb_t cb, void *userdata), \
        (c, cb, userdata), NULL) \
    X(pa_operation *, pa_context_get_sink_info_by_name, \
        (pa_context *c, const char *name, pa_sink_info_cb_t cb, void *userdata), (c, name, cb, userdata), NULL) \
    X(pa_stream *, pa_stream_new_with_proplist, \
        (pa_context *c, const char *name, const pa_sample_spec *ss, const pa_channel_map *map, pa_proplist *p), \
        (c, name, ss, map, p), NULL) \
    X(pa_proplist *, pa_proplist_new, (void), (), NULL) \
    V(pa_proplist_free, (pa_proplist *p), (p)) \
    X(int, pa_proplist_sets, (pa_proplist *p, const char *key, const char *value), (p, key, value), -1) \
    V(pa_stream_set_event_callback, (pa_stream *p, pa_stream_event_cb_t cb, void *userdata), (p, cb, userdata)) \
    X(int, pa_stream_connect_playback, \
        (pa_stream *s, const char *dev, const pa_buffer_attr *attr, pa_stream_flags_t flags, \
            const pa_cvolume *volume, pa_stream *sync_stream), \
        (s, dev, attr, flags, volume, sync_stream), -1) \
    X(int, pa_stream_disconnect, (pa_stream *s), (s), -1) \
    V(pa_stream_unref, (pa_stream *s), (s)) \
    X(pa_stream_state_t, pa_stream_get_state, (const pa_stream *p), (p), PA_STREAM_FAILED) \
    V(pa_stream_set_state_callback, (pa_stream *s, pa_stream_notify_cb_t cb, void *userdata), (s, cb, userdata)) \
    V(pa_stream_set_write_callback, (pa_stream *p, pa_stream_request_cb_t cb, void *userdata), (p, cb, userdata)) \
    V(pa_stream_set_underflow_callback, (pa_stream *p, pa_stream_notify_cb_t cb, void *userdata), (p, cb, userdata)) \
    X(int, pa_stream_begin_write, (pa_stream *p, void **data, size_t *nbytes), (p, data, nbytes), -1) \
    X(int, pa_stream_cancel_write, (pa_stream *p), (p), -1) \
    X(int, pa_stream_write, \
        (pa_stream *p, const void *data, size_t nbytes, pa_free_cb_t free_cb, int64_t offset, pa_seek_mode_t seek), \
        (p, data, nbytes, free_cb, offset, seek), -1) \
    X(pa_operation *, pa_stream_cork, (pa_stream *s, int b, pa_stream_success_cb_t cb, void *userdata), \
        (s, b, cb, userdata), NULL) \
    X(pa_operation *, pa_stream_flush, (pa_stream *s, pa_stream_success_cb_t cb, void *userdata), \
        (s, cb, userdata), NULL) \
    X(pa_operation *, pa_stream_drain, (pa_stream *s, pa_stream_success_cb_t cb, void *userdata), \
        (s, cb, userdata), NULL) \
    X(pa_operation *, pa_stream_set_buffer_attr, \
        (pa_stream *s, const pa_buffer_attr *attr, pa_stream_success_cb_t cb, void *userdata), (s, attr, cb, userdata), NULL) \
    V(pa_operation_cancel, (pa_operation *o), (o)) \
    X(int, pa_stream_get_latency, (pa_stream *s, pa_usec_t *r_usec, int *negative), (s, r_usec, negative), -1) \
    X(const pa_buffer_attr *, pa_stream_get_buffer_attr, (pa_stream *s), (s), NULL) \
    X(const pa_timing_info *, pa_stream_get_timing_info, (pa_stream *s), (s), NULL) \
    X(size_t, pa_stream_writable_size, (const pa_stream *p), (p), (size_t)-1) \
    X(const char *, pa_stream_get_device_name, (const pa_stream *s), (s), NULL) \
    V(pa_operation_unref, (pa_operation *o), (o)) \
    X(pa_operation_state_t, pa_operation_get_state, (const pa_operation *o), (o), PA_OPERATION_CANCELLED) \
    X(const char *, pa_strerror, (int error), (error), "PulseAudio is not loaded") \
    X(pa_channel_map *, pa_channel_map_init_extend, (pa_channel_map *m, unsigned channels, pa_channel_map_def_t def), \
        (m, channels, def), NULL) \
    X(pa_channel_map *, pa_channel_map_init, (pa_channel_map *m), (m), NULL)

#define DECLARE(result, name, parameters, arguments, failure) static result(*real_##name) parameters;
#define DECLARE_VOID(name, parameters, arguments) static void(*real_##name) parameters;
PULSE_FUNCTIONS(DECLARE, DECLARE_VOID)

static void load(void) {
    void *library = dlopen("libpulse.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(loadError, sizeof loadError, "cannot load libpulse.so.0: %s", dlerror());
        return;
    }
#define RESOLVE(result, name, parameters, arguments, failure) \
    if (!(real_##name = (result(*) parameters)dlsym(library, #name))) { \
        snprintf(loadError, sizeof loadError, "libpulse.so.0 lacks %s", #name); \
        return; \
    }
#define RESOLVE_VOID(name, parameters, arguments) RESOLVE(void, name, parameters, arguments, )
    PULSE_FUNCTIONS(RESOLVE, RESOLVE_VOID)
    loaded = 1;
}

int playhead_pulse_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *playhead_pulse_load_error(void) {
    playhead_pulse_load();
    return loadError;
}

#define STUB(result, name, parameters, arguments, failure) \
    result name parameters { \
        if (!playhead_pulse_load()) return failure; \
        return real_##name arguments; \
    }
#define STUB_VOID(name, parameters, arguments) \
    void name parameters { \
        if (!playhead_pulse_load()) return; \
        real_##name arguments; \
    }
PULSE_FUNCTIONS(STUB, STUB_VOID)
