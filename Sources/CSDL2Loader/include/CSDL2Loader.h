// Playhead: loads SDL2 and SDL2_ttf on first use (see SDLLazyLoader.c). OpenAVKit's SDL calls
// link against the stubs there; nothing needs to call this header's function directly.
#ifndef PLAYHEAD_CSDL2_LOADER_H
#define PLAYHEAD_CSDL2_LOADER_H

/// Loads the libraries once (thread-safe); 1 when every SDL function Playhead uses resolved.
int CSDL2Loader_load(void);

#endif
