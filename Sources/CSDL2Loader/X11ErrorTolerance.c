// Playhead: keeps one harmless X error from ending the process (see CSDL2Loader.h).
#include "CSDL2Loader.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

// The start of Xlib's XErrorEvent, spelled out so no X11 headers are needed.
typedef struct {
    int type;
    void *display;
    unsigned long resourceid;
    unsigned long serial;
    unsigned char error_code;
    unsigned char request_code;
    unsigned char minor_code;
} PlayheadXErrorEvent;

typedef int (*PlayheadXErrorHandler)(void *display, PlayheadXErrorEvent *event);

static PlayheadXErrorHandler previous_handler = 0;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

enum { X_BAD_WINDOW = 3, X_SEND_EVENT = 25 };

static int tolerate_stale_wake_up(void *display, PlayheadXErrorEvent *event) {
    // SDL wakes its event loop by sending a ClientMessage to the window it last waited on;
    // when that window is already destroyed the server answers BadWindow. Nothing was lost.
    if (event->error_code == X_BAD_WINDOW && event->request_code == X_SEND_EVENT) return 0;
    return previous_handler ? previous_handler(display, event) : 0;
}

static void install(void) {
    // Before SDL's video starts: SDL keeps the handler it finds and puts it back when video
    // stops, just before closing its X connections, which is when a late wake-up's error
    // arrives. Load libX11 (SDL loads the same one) only where an X display is named.
    const char *display = getenv("DISPLAY");
    if (!display || !*display) return;
    void *x11 = dlopen("libX11.so.6", RTLD_NOW);
    if (!x11) return;
    PlayheadXErrorHandler (*set_handler)(PlayheadXErrorHandler) =
        (PlayheadXErrorHandler (*)(PlayheadXErrorHandler))dlsym(x11, "XSetErrorHandler");
    // The handle is kept: closing it could unload libX11 (when nothing else has loaded it
    // yet) and with it the handler just installed.
    if (set_handler) previous_handler = set_handler(tolerate_stale_wake_up);
}

void CSDL2Loader_tolerateStaleWakeUps(void) { pthread_once(&install_once, install); }
