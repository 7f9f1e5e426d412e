// Playhead: the source side of an X drag and drop (the XDND protocol a file manager speaks),
// for window tests: a small Xlib program (CHelper) that offers a text/uri-list, sends
// XdndEnter and XdndPosition to a window, drops when the window accepts, hands the list over
// when the window asks for the selection, and returns once the window says it is finished.
//
// Concurrency: `drop` runs the program on the calling thread (call it off the cooperative pool).
import Foundation

/// Drops URIs on an X window as a file manager would.
public final class XDNDSource: @unchecked Sendable {
    private let helper: CHelper

    /// Compiles the program.
    /// - Throws: ``TestSupportError`` when libX11's headers or a C compiler are missing.
    public init() throws {
        helper = try CHelper(name: "xdnd-drop", source: Self.source, packages: ["x11"])
    }

    /// Drops `uris` (one text/uri-list) on `window` (an X window id) at root position `x`,`y`
    /// on `display`. True when the window accepted the drop and said it was finished.
    public func drop(_ uris: [URL], on window: String, x: Int, y: Int, display: String) throws
        -> Bool
    {
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        let list = uris.map(\.absoluteString).joined(separator: "\r\n") + "\r\n"
        let result = try Subprocess.run(
            helper.executable, [window, "\(x)", "\(y)", list], limit: 20, environment: environment)
        return result.ending == .exited(0)
    }

    /// Deletes the program.
    public func remove() { helper.remove() }

    private static let source = #"""
        #include <X11/Xlib.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <string.h>
        #include <time.h>
        #include <unistd.h>

        static Display *d;
        static Atom atom(const char *name) { return XInternAtom(d, name, False); }

        static void message(Window target, Window source, const char *type, long l1, long l2, long l3, long l4) {
            XEvent e;
            memset(&e, 0, sizeof e);
            e.xclient.type = ClientMessage;
            e.xclient.display = d;
            e.xclient.window = target;
            e.xclient.message_type = atom(type);
            e.xclient.format = 32;
            e.xclient.data.l[0] = (long)source;
            e.xclient.data.l[1] = l1;
            e.xclient.data.l[2] = l2;
            e.xclient.data.l[3] = l3;
            e.xclient.data.l[4] = l4;
            XSendEvent(d, target, False, NoEventMask, &e);
            XFlush(d);
        }

        int main(int argc, char **argv) {
            if (argc < 5 || !(d = XOpenDisplay(NULL))) return 2;
            Window target = (Window)strtoul(argv[1], NULL, 0);
            long x = atol(argv[2]), y = atol(argv[3]);
            const char *list = argv[4];
            Window source = XCreateSimpleWindow(d, DefaultRootWindow(d), 0, 0, 1, 1, 0, 0, 0);
            Atom uriList = atom("text/uri-list");
            XSetSelectionOwner(d, atom("XdndSelection"), source, CurrentTime);
            message(target, source, "XdndEnter", 5L << 24, (long)uriList, 0, 0);
            message(target, source, "XdndPosition", 0, (x << 16) | (y & 0xffff), CurrentTime, (long)atom("XdndActionCopy"));
            int dropped = 0;
            time_t deadline = time(NULL) + 15;
            while (time(NULL) < deadline) {
                while (XPending(d)) {
                    XEvent e;
                    XNextEvent(d, &e);
                    if (e.type == ClientMessage && e.xclient.message_type == atom("XdndStatus") && !dropped) {
                        if (!(e.xclient.data.l[1] & 1)) { fprintf(stderr, "the window refused the drop\n"); return 3; }
                        message(target, source, "XdndDrop", 0, CurrentTime, 0, 0);
                        dropped = 1;
                    } else if (e.type == ClientMessage && e.xclient.message_type == atom("XdndFinished")) {
                        XCloseDisplay(d);
                        return 0;
                    } else if (e.type == SelectionRequest) {
                        XSelectionRequestEvent *r = &e.xselectionrequest;
                        XEvent n;
                        memset(&n, 0, sizeof n);
                        n.xselection.type = SelectionNotify;
                        n.xselection.display = d;
                        n.xselection.requestor = r->requestor;
                        n.xselection.selection = r->selection;
                        n.xselection.target = r->target;
                        n.xselection.time = r->time;
                        n.xselection.property = r->property;
                        if (r->target == uriList) {
                            XChangeProperty(d, r->requestor, r->property, r->target, 8, PropModeReplace,
                                (const unsigned char *)list, (int)strlen(list));
                        } else {
                            n.xselection.property = None;
                        }
                        XSendEvent(d, r->requestor, False, NoEventMask, &n);
                        XFlush(d);
                    }
                }
                usleep(10000);
            }
            fprintf(stderr, "no XdndFinished within 15 s (dropped: %d)\n", dropped);
            return 4;
        }
        """#
}
