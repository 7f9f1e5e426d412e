// Playhead: the session bus's screensaver service (`org.freedesktop.ScreenSaver`, which GNOME,
// KDE, Xfce and others implement), called through libdbus: `Inhibit(application, reason)`
// returns a cookie that `UnInhibit(cookie)` gives back.
//
// Concurrency: used only on `ScreenSaverInhibitor`'s serial queue, which owns the connection;
// the calls block that queue (never a window's thread or the main queue) for at most
// `timeout` milliseconds each.
internal import CDBus
internal import CDBusLoader
import Foundation

/// Makes the screensaver service's calls for an inhibitor.
protocol ScreenSaverTransport: AnyObject {
    /// Holds the screensaver off; the cookie, or nil when the service cannot be reached.
    func inhibit(application: String, reason: String) -> UInt32?
    /// Lets go of `cookie`; false when the call failed.
    func unInhibit(_ cookie: UInt32) -> Bool
}

/// `org.freedesktop.ScreenSaver` over a private libdbus connection to the bus at `address`,
/// opened on the first call.
final class ScreenSaverBus: ScreenSaverTransport {
    static let service = "org.freedesktop.ScreenSaver"
    static let objectPath = "/org/freedesktop/ScreenSaver"
    private let address: String
    private let timeout: Int32
    private var connection: OpaquePointer?

    /// A transport for the bus at `address`; each call waits up to `timeout` ms for its reply.
    init(address: String, timeout: Int32 = 2000) {
        self.address = address
        self.timeout = timeout
    }

    deinit {
        if let connection {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
        }
    }

    func inhibit(application: String, reason: String) -> UInt32? {
        guard let reply = call("Inhibit", arguments: [application, reason]) else { return nil }
        defer { dbus_message_unref(reply) }
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(reply, &iter) != 0,
            dbus_message_iter_get_arg_type(&iter) == DBusType.uint32
        else { return nil }
        var cookie: UInt32 = 0
        dbus_message_iter_get_basic(&iter, &cookie)
        return cookie
    }

    func unInhibit(_ cookie: UInt32) -> Bool {
        guard let reply = call("UnInhibit", cookie: cookie) else { return false }
        dbus_message_unref(reply)
        return true
    }

    /// Calls `method` with string arguments (or one cookie) and returns the method's reply,
    /// nil on an error reply, a time-out or no connection.
    private func call(_ method: String, arguments: [String] = [], cookie: UInt32? = nil)
        -> OpaquePointer?
    {
        guard let connection = connected(),
            let message = dbus_message_new_method_call(
                Self.service, Self.objectPath, Self.service, method)
        else { return nil }
        defer { dbus_message_unref(message) }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for argument in arguments {
            let appended = argument.withCString { text -> Bool in
                var pointer: UnsafePointer<CChar>? = text
                return dbus_message_iter_append_basic(&iter, DBusType.string, &pointer) != 0
            }
            guard appended else { return nil }
        }
        if var cookie {
            guard dbus_message_iter_append_basic(&iter, DBusType.uint32, &cookie) != 0 else {
                return nil
            }
        }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let reply = dbus_connection_send_with_reply_and_block(connection, message, timeout, &error)
        // Signals (NameAcquired) queue up on a connection nobody reads: drop them.
        while let stray = dbus_connection_pop_message(connection) { dbus_message_unref(stray) }
        if reply == nil, dbus_connection_get_is_connected(connection) == 0 { disconnect() }
        return reply
    }

    /// The open connection, opening it first; nil when libdbus or the bus is missing.
    private func connected() -> OpaquePointer? {
        if let connection { return connection }
        guard playhead_dbus_load() != 0 else { return nil }
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let opened = dbus_connection_open_private(address, &error) else { return nil }
        dbus_connection_set_exit_on_disconnect(opened, 0)
        guard dbus_bus_register(opened, &error) != 0 else {
            dbus_connection_close(opened)
            dbus_connection_unref(opened)
            return nil
        }
        connection = opened
        return opened
    }

    private func disconnect() {
        guard let connection else { return }
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
        self.connection = nil
    }
}
