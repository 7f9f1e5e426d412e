// Playhead: the D-Bus client library loaded on first use instead of at process start.
//
// The binary is not linked against libdbus: each libdbus function OpenMediaPlayer calls is
// defined here with libdbus's prototype (from CDBus.h) and forwards to the real function,
// resolved with dlopen/dlsym by the first call. A run with --no-mpris, or without a session
// bus address, never maps the library. When it cannot be loaded every stub fails the way
// libdbus reports failure (NULL, FALSE, -1 or nothing) and `playhead_dbus_load_error()` says
// why, so the caller turns the feature off instead of crashing.
//
// Concurrency: the pointers are written once inside load() under pthread_once and are
// read-only afterwards, so any thread may call the stubs.
#include "CDBusLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include "../CDBus/CDBus.h"  // the systemLibrary leaf's declarations

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char loadError[256] = "";

// One entry per function: its result type, name, parameters with names, the arguments, and
// what the stub returns when the library is missing.
#define DBUS_FUNCTIONS(X, V) \
    V(dbus_error_init, (DBusError *error), (error)) \
    V(dbus_error_free, (DBusError *error), (error)) \
    X(dbus_bool_t, dbus_error_is_set, (const DBusError *error), (error), 0) \
    X(DBusConnection *, dbus_bus_get_private, (DBusBusType type, DBusError *error), (type, error), NULL) \
    X(DBusConnection *, dbus_connection_open_private, (const char *address, DBusError *error), \
        (address, error), NULL) \
    X(dbus_bool_t, dbus_bus_register, (DBusConnection *connection, DBusError *error), (connection, error), 0) \
    X(int, dbus_bus_request_name, \
        (DBusConnection *connection, const char *name, unsigned int flags, DBusError *error), \
        (connection, name, flags, error), -1) \
    V(dbus_connection_set_exit_on_disconnect, (DBusConnection *connection, dbus_bool_t exit_on_disconnect), \
        (connection, exit_on_disconnect)) \
    X(dbus_bool_t, dbus_connection_read_write, (DBusConnection *connection, int timeout_milliseconds), \
        (connection, timeout_milliseconds), 0) \
    X(DBusMessage *, dbus_connection_pop_message, (DBusConnection *connection), (connection), NULL) \
    X(dbus_bool_t, dbus_connection_send, \
        (DBusConnection *connection, DBusMessage *message, dbus_uint32_t *client_serial), \
        (connection, message, client_serial), 0) \
    V(dbus_connection_flush, (DBusConnection *connection), (connection)) \
    X(DBusMessage *, dbus_connection_send_with_reply_and_block, \
        (DBusConnection *connection, DBusMessage *message, int timeout_milliseconds, DBusError *error), \
        (connection, message, timeout_milliseconds, error), NULL) \
    X(dbus_bool_t, dbus_connection_get_is_connected, (DBusConnection *connection), (connection), 0) \
    X(dbus_bool_t, dbus_connection_get_unix_fd, (DBusConnection *connection, int *fd), (connection, fd), 0) \
    V(dbus_connection_close, (DBusConnection *connection), (connection)) \
    V(dbus_connection_unref, (DBusConnection *connection), (connection)) \
    X(int, dbus_message_get_type, (DBusMessage *message), (message), 0) \
    X(const char *, dbus_message_get_path, (DBusMessage *message), (message), NULL) \
    X(const char *, dbus_message_get_interface, (DBusMessage *message), (message), NULL) \
    X(const char *, dbus_message_get_member, (DBusMessage *message), (message), NULL) \
    X(dbus_bool_t, dbus_message_get_no_reply, (DBusMessage *message), (message), 0) \
    X(DBusMessage *, dbus_message_new_method_return, (DBusMessage *method_call), (method_call), NULL) \
    X(DBusMessage *, dbus_message_new_error, \
        (DBusMessage *reply_to, const char *error_name, const char *error_message), \
        (reply_to, error_name, error_message), NULL) \
    X(DBusMessage *, dbus_message_new_signal, (const char *path, const char *iface, const char *name), \
        (path, iface, name), NULL) \
    X(DBusMessage *, dbus_message_new_method_call, \
        (const char *bus_name, const char *path, const char *iface, const char *method), \
        (bus_name, path, iface, method), NULL) \
    X(DBusMessage *, dbus_message_ref, (DBusMessage *message), (message), NULL) \
    V(dbus_message_unref, (DBusMessage *message), (message)) \
    X(dbus_bool_t, dbus_message_iter_init, (DBusMessage *message, DBusMessageIter *iter), (message, iter), 0) \
    X(int, dbus_message_iter_get_arg_type, (DBusMessageIter *iter), (iter), DBUS_TYPE_INVALID) \
    V(dbus_message_iter_get_basic, (DBusMessageIter *iter, void *value), (iter, value)) \
    X(dbus_bool_t, dbus_message_iter_next, (DBusMessageIter *iter), (iter), 0) \
    V(dbus_message_iter_recurse, (DBusMessageIter *iter, DBusMessageIter *sub), (iter, sub)) \
    V(dbus_message_iter_init_append, (DBusMessage *message, DBusMessageIter *iter), (message, iter)) \
    X(dbus_bool_t, dbus_message_iter_append_basic, (DBusMessageIter *iter, int type, const void *value), \
        (iter, type, value), 0) \
    X(dbus_bool_t, dbus_message_iter_open_container, \
        (DBusMessageIter *iter, int type, const char *contained_signature, DBusMessageIter *sub), \
        (iter, type, contained_signature, sub), 0) \
    X(dbus_bool_t, dbus_message_iter_close_container, (DBusMessageIter *iter, DBusMessageIter *sub), \
        (iter, sub), 0)

#define DECLARE(result, name, parameters, arguments, failure) static result(*real_##name) parameters;
#define DECLARE_VOID(name, parameters, arguments) static void(*real_##name) parameters;
DBUS_FUNCTIONS(DECLARE, DECLARE_VOID)

static void load(void) {
    void *library = dlopen("libdbus-1.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(loadError, sizeof loadError, "cannot load libdbus-1.so.3: %s", dlerror());
        return;
    }
#define RESOLVE(result, name, parameters, arguments, failure) \
    if (!(real_##name = (result(*) parameters)dlsym(library, #name))) { \
        snprintf(loadError, sizeof loadError, "libdbus-1.so.3 lacks %s", #name); \
        return; \
    }
#define RESOLVE_VOID(name, parameters, arguments) RESOLVE(void, name, parameters, arguments, )
    DBUS_FUNCTIONS(RESOLVE, RESOLVE_VOID)
    loaded = 1;
}

int playhead_dbus_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *playhead_dbus_load_error(void) {
    playhead_dbus_load();
    return loadError;
}

#define STUB(result, name, parameters, arguments, failure) \
    result name parameters { \
        if (!playhead_dbus_load()) return failure; \
        return real_##name arguments; \
    }
#define STUB_VOID(name, parameters, arguments) \
    void name parameters { \
        if (!playhead_dbus_load()) return; \
        real_##name arguments; \
    }
DBUS_FUNCTIONS(STUB, STUB_VOID)
