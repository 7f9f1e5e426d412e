// Playhead: a stand-in for the desktop's screensaver service on a test bus: it owns
// `org.freedesktop.ScreenSaver`, answers `Inhibit(app, reason)` with cookies 1, 2, 3... and
// `UnInhibit(cookie)`, and writes each call to a log the test reads. A small libdbus program
// (CHelper), run as a process of its own.
//
// Concurrency: `start` and `stop` by the owning test; `calls` reads the log file, from any thread.
import Foundation

/// A fake `org.freedesktop.ScreenSaver` on a `SessionBus`, recording what it is asked.
public final class FakeScreenSaver: @unchecked Sendable {
    /// One call the service received.
    public enum Call: Equatable, Sendable {
        case inhibit(cookie: UInt32, application: String, reason: String)
        case unInhibit(cookie: UInt32)
    }

    private let helper: CHelper
    private let log: URL
    private let pid: pid_t

    /// Starts the service on `bus` and waits until it owns its name.
    /// - Throws: ``TestSupportError`` when it cannot be compiled or does not come up in 10 s.
    public init(bus: SessionBus) throws {
        helper = try CHelper(name: "fake-screensaver", source: Self.source, packages: ["dbus-1"])
        log = helper.directory.appendingPathComponent("calls.log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        do {
            pid = try DetachedProcess.spawn(
                helper.executable.path, [bus.address, log.path], environment: [:])
        } catch {
            helper.remove()
            throw error
        }
        let log = self.log
        guard
            SessionBus.waitUntil(
                10, { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").hasPrefix("ready") })
        else {
            stop()
            throw TestSupportError("the fake screensaver service did not take its name within 10 s")
        }
    }

    /// Every call so far, in order.
    public var calls: [Call] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard fields.count >= 2, let cookie = UInt32(fields[1]) else { return nil }
            if fields[0] == "uninhibit" { return .unInhibit(cookie: cookie) }
            guard fields[0] == "inhibit", fields.count == 3 else { return nil }
            let names = fields[2].split(
                separator: "|", maxSplits: 1, omittingEmptySubsequences: false
            ).map(String.init)
            return .inhibit(
                cookie: cookie, application: names.first ?? "",
                reason: names.count > 1 ? names[1] : "")
        }
    }

    /// The cookies inhibited and not given back yet.
    public var heldCookies: [UInt32] {
        var held: [UInt32] = []
        for call in calls {
            switch call {
            case .inhibit(let cookie, _, _): held.append(cookie)
            case .unInhibit(let cookie): held.removeAll { $0 == cookie }
            }
        }
        return held
    }

    /// How many Inhibit calls came in.
    public var inhibitCount: Int {
        calls.filter { if case .inhibit = $0 { true } else { false } }.count
    }

    /// Stops the service and removes its files.
    public func stop() {
        DetachedProcess.end(pid, signal: SIGKILL)
        helper.remove()
    }

    private static let source = #"""
        #include <dbus/dbus.h>
        #include <stdio.h>

        static void reply(DBusConnection *c, DBusMessage *call, dbus_uint32_t *cookie) {
            DBusMessage *r = dbus_message_new_method_return(call);
            if (cookie) dbus_message_append_args(r, DBUS_TYPE_UINT32, cookie, DBUS_TYPE_INVALID);
            dbus_connection_send(c, r, NULL);
            dbus_message_unref(r);
        }

        int main(int argc, char **argv) {
            if (argc < 3) return 2;
            DBusError e;
            dbus_error_init(&e);
            DBusConnection *c = dbus_connection_open_private(argv[1], &e);
            if (!c || !dbus_bus_register(c, &e)) return 1;
            if (dbus_bus_request_name(c, "org.freedesktop.ScreenSaver", DBUS_NAME_FLAG_DO_NOT_QUEUE, &e)
                != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) return 1;
            FILE *log = fopen(argv[2], "a");
            if (!log) return 1;
            fprintf(log, "ready\n");
            fflush(log);
            dbus_uint32_t next = 1;
            while (dbus_connection_read_write(c, -1)) {
                DBusMessage *m;
                while ((m = dbus_connection_pop_message(c))) {
                    if (dbus_message_is_method_call(m, "org.freedesktop.ScreenSaver", "Inhibit")) {
                        const char *app = "", *reason = "";
                        if (!dbus_message_get_args(m, &e, DBUS_TYPE_STRING, &app, DBUS_TYPE_STRING, &reason,
                                DBUS_TYPE_INVALID)) dbus_error_free(&e);
                        dbus_uint32_t cookie = next++;
                        fprintf(log, "inhibit %u %s|%s\n", cookie, app, reason);
                        fflush(log);
                        reply(c, m, &cookie);
                    } else if (dbus_message_is_method_call(m, "org.freedesktop.ScreenSaver", "UnInhibit")) {
                        dbus_uint32_t cookie = 0;
                        if (!dbus_message_get_args(m, &e, DBUS_TYPE_UINT32, &cookie, DBUS_TYPE_INVALID))
                            dbus_error_free(&e);
                        fprintf(log, "uninhibit %u\n", cookie);
                        fflush(log);
                        reply(c, m, NULL);
                    }
                    dbus_message_unref(m);
                }
            }
            return 0;
        }
        """#
}
