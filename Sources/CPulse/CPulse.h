// Playhead: PulseAudio's client API, headers only. The binary does not link libpulse:
// CPulseLoader defines the functions Playhead calls and loads the library on first use.
#include <pulse/pulseaudio.h>
