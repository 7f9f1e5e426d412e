// Playhead: the SDL2 headers Swift sees (OpenAVKit is their only importer).
#ifndef PLAYHEAD_CSDL2_H
#define PLAYHEAD_CSDL2_H
#define SDL_MAIN_HANDLED 1
#include <SDL2/SDL.h>
#include <SDL2/SDL_ttf.h>
#endif
