// Playhead: loads PulseAudio's client library (libpulse.so.0) on first use.
#ifndef CPULSELOADER_H
#define CPULSELOADER_H

#include <stddef.h>

/// Loads libpulse if it is not loaded yet. Returns 1 when every function Playhead calls is
/// available, 0 otherwise; then `playhead_pulse_load_error()` says why. Thread-safe.
int playhead_pulse_load(void);

/// Why loading failed (a static string; empty after a successful load).
const char *playhead_pulse_load_error(void);

#endif
