// Playhead: the SDL2 headers Swift sees (OpenAVKit is their only importer). The libraries are
// not linked: CSDL2Loader defines the functions OpenAVKit calls and loads SDL on first use.
#ifndef PLAYHEAD_CSDL2_H
#define PLAYHEAD_CSDL2_H
#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
#endif
