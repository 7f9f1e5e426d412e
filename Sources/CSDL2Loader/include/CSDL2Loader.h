// Playhead: loads SDL2 and SDL2_ttf on first use (see SDLLazyLoader.c). OpenAVKit's SDL calls
// link against the stubs there; CSDL2Loader_load need not be called directly.
#ifndef PLAYHEAD_CSDL2_LOADER_H
#define PLAYHEAD_CSDL2_LOADER_H

/// Loads the libraries once (thread-safe); 1 when every SDL function Playhead uses resolved.
int CSDL2Loader_load(void);

/// Before SDL's video starts: installs an X error handler that ignores BadWindow on
/// X_SendEvent (an SDL event wake-up that reached a window already destroyed, which Xlib's
/// default handler would turn into exit(1)) and passes every other error to the handler it
/// replaces. SDL chains its own handler to this one and restores it when video stops, so it
/// also covers the errors that arrive while SDL closes its X connections. Does nothing
/// without $DISPLAY or libX11; only the first call acts.
void CSDL2Loader_tolerateStaleWakeUps(void);

#endif
