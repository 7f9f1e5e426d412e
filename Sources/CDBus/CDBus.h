// Playhead: the part of libdbus (the reference D-Bus client library, libdbus-1.so.3) that
// OpenMediaPlayer's MPRIS server and screensaver inhibitor call, headers only. The binary does
// not link libdbus: CDBusLoader defines these functions and loads the library on first use.
//
// Why declarations of our own rather than <dbus/dbus.h>: libdbus installs its headers under
// /usr/include/dbus-1.0 plus an architecture folder (/usr/lib/<triplet>/dbus-1.0/include),
// which only pkg-config knows, and a systemLibrary's pkg-config also links the library (which
// would make libdbus a start-up requirement again). These are the documented, ABI-stable
// libdbus 1.x prototypes and constants; `scripts/check-dbus-header.sh` compiles this file
// after the real <dbus/dbus.h> so the compiler checks every prototype, constant and size
// against the installed library.
#ifndef PLAYHEAD_CDBUS_H
#define PLAYHEAD_CDBUS_H

#include <stdint.h>

#ifndef PLAYHEAD_CHECK_AGAINST_SYSTEM_DBUS
typedef uint32_t dbus_bool_t;
typedef uint32_t dbus_uint32_t;
typedef int64_t dbus_int64_t;

typedef struct DBusConnection DBusConnection;
typedef struct DBusMessage DBusMessage;

/// An error filled by a failing call (`name` and `message` are public; the rest is private).
typedef struct DBusError {
    const char *name;
    const char *message;
    unsigned int dummy1 : 1;
    unsigned int dummy2 : 1;
    unsigned int dummy3 : 1;
    unsigned int dummy4 : 1;
    unsigned int dummy5 : 1;
    void *padding1;
} DBusError;

/// A reading or writing position in a message: caller-allocated, opaque (libdbus 1.x: two
/// pointers, ten 32-bit integers, two pointers; 72 bytes on LP64).
typedef struct DBusMessageIter {
    void *dummy1;
    void *dummy2;
    dbus_uint32_t dummy3;
    int dummy4, dummy5, dummy6, dummy7, dummy8, dummy9, dummy10, dummy11, pad1;
    void *pad2;
    void *pad3;
} DBusMessageIter;

typedef enum { DBUS_BUS_SESSION = 0, DBUS_BUS_SYSTEM = 1, DBUS_BUS_STARTER = 2 } DBusBusType;

#define DBUS_NAME_FLAG_DO_NOT_QUEUE 0x4
#define DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER 1
#define DBUS_MESSAGE_TYPE_METHOD_CALL 1

#define DBUS_TYPE_INVALID ((int)'\0')
#define DBUS_TYPE_BOOLEAN ((int)'b')
#define DBUS_TYPE_INT64 ((int)'x')
#define DBUS_TYPE_UINT32 ((int)'u')
#define DBUS_TYPE_DOUBLE ((int)'d')
#define DBUS_TYPE_STRING ((int)'s')
#define DBUS_TYPE_OBJECT_PATH ((int)'o')
#define DBUS_TYPE_ARRAY ((int)'a')
#define DBUS_TYPE_VARIANT ((int)'v')
#define DBUS_TYPE_DICT_ENTRY ((int)'e')
#endif

void dbus_error_init(DBusError *error);
void dbus_error_free(DBusError *error);
dbus_bool_t dbus_error_is_set(const DBusError *error);

DBusConnection *dbus_bus_get_private(DBusBusType type, DBusError *error);
DBusConnection *dbus_connection_open_private(const char *address, DBusError *error);
dbus_bool_t dbus_bus_register(DBusConnection *connection, DBusError *error);
int dbus_bus_request_name(DBusConnection *connection, const char *name, unsigned int flags, DBusError *error);
void dbus_connection_set_exit_on_disconnect(DBusConnection *connection, dbus_bool_t exit_on_disconnect);
dbus_bool_t dbus_connection_read_write(DBusConnection *connection, int timeout_milliseconds);
DBusMessage *dbus_connection_pop_message(DBusConnection *connection);
dbus_bool_t dbus_connection_send(DBusConnection *connection, DBusMessage *message, dbus_uint32_t *client_serial);
void dbus_connection_flush(DBusConnection *connection);
DBusMessage *dbus_connection_send_with_reply_and_block(
    DBusConnection *connection, DBusMessage *message, int timeout_milliseconds, DBusError *error);
dbus_bool_t dbus_connection_get_is_connected(DBusConnection *connection);
dbus_bool_t dbus_connection_get_unix_fd(DBusConnection *connection, int *fd);
void dbus_connection_close(DBusConnection *connection);
void dbus_connection_unref(DBusConnection *connection);

int dbus_message_get_type(DBusMessage *message);
const char *dbus_message_get_path(DBusMessage *message);
const char *dbus_message_get_interface(DBusMessage *message);
const char *dbus_message_get_member(DBusMessage *message);
dbus_bool_t dbus_message_get_no_reply(DBusMessage *message);
DBusMessage *dbus_message_new_method_return(DBusMessage *method_call);
DBusMessage *dbus_message_new_error(DBusMessage *reply_to, const char *error_name, const char *error_message);
DBusMessage *dbus_message_new_signal(const char *path, const char *iface, const char *name);
DBusMessage *dbus_message_new_method_call(const char *bus_name, const char *path, const char *iface, const char *method);
DBusMessage *dbus_message_ref(DBusMessage *message);
void dbus_message_unref(DBusMessage *message);

dbus_bool_t dbus_message_iter_init(DBusMessage *message, DBusMessageIter *iter);
int dbus_message_iter_get_arg_type(DBusMessageIter *iter);
void dbus_message_iter_get_basic(DBusMessageIter *iter, void *value);
dbus_bool_t dbus_message_iter_next(DBusMessageIter *iter);
void dbus_message_iter_recurse(DBusMessageIter *iter, DBusMessageIter *sub);
void dbus_message_iter_init_append(DBusMessage *message, DBusMessageIter *iter);
dbus_bool_t dbus_message_iter_append_basic(DBusMessageIter *iter, int type, const void *value);
dbus_bool_t dbus_message_iter_open_container(
    DBusMessageIter *iter, int type, const char *contained_signature, DBusMessageIter *sub);
dbus_bool_t dbus_message_iter_close_container(DBusMessageIter *iter, DBusMessageIter *sub);

#endif
