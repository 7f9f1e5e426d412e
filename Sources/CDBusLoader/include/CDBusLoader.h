// Playhead: loads the D-Bus client library (libdbus-1.so.3) on first use.
#ifndef CDBUSLOADER_H
#define CDBUSLOADER_H

/// Loads libdbus if it is not loaded yet. Returns 1 when every function Playhead calls is
/// available, 0 otherwise; then `playhead_dbus_load_error()` says why. Thread-safe.
int playhead_dbus_load(void);

/// Why loading failed (a static string; empty after a successful load).
const char *playhead_dbus_load_error(void);

#endif
