// Playhead: the libass headers Swift sees (OpenAVKit's ASS renderer is their only importer).
// The library is not linked: CASSLoader defines the functions OpenAVKit calls and loads
// libass.so.9 the first time a window draws text subtitles, so headless runs, probes and
// thumbnails never map it (nor fontconfig and FreeType behind it).
#ifndef PLAYHEAD_CASS_H
#define PLAYHEAD_CASS_H
#include <ass/ass.h>
#endif
