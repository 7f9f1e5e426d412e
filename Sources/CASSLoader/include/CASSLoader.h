// Playhead: loads libass (libass.so.9) on first use.
#ifndef CASSLOADER_H
#define CASSLOADER_H

#include <ass/ass.h>

/// Loads libass if it is not loaded yet. Returns 1 when every function Playhead calls is
/// available, 0 otherwise; then `playhead_ass_load_error()` says why. Thread-safe.
int playhead_ass_load(void);

/// Why loading failed (a static string; empty after a successful load).
const char *playhead_ass_load_error(void);

/// Routes libass's log to nothing but errors (level 0-1), written to standard error with a
/// "playhead: subtitles:" prefix; libass otherwise prints every font lookup.
void playhead_ass_quiet_messages(ASS_Library *library);

#endif
