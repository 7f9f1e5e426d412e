// Playhead: loads SDL2 and SDL2_ttf on first use (see SDLLazyLoader.c). OpenAVKit's SDL calls
// link against the stubs there; CSDL2Loader_load need not be called directly.
#ifndef PLAYHEAD_CSDL2_LOADER_H
#define PLAYHEAD_CSDL2_LOADER_H

/// Loads the libraries once (thread-safe); 1 when every SDL function Playhead uses resolved.
int CSDL2Loader_load(void);

/// Once SDL has opened an X11 window: installs an X error handler that ignores BadWindow on
/// X_SendEvent (an SDL event wake-up that reached a window already destroyed, which Xlib's
/// default handler would turn into exit(1)) and passes every other error to the handler it
/// replaces (SDL's). Does nothing without libX11 loaded; safe to call more than once.
void CSDL2Loader_tolerateStaleWakeUps(void);

#endif
