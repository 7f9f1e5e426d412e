// Playhead: the MPRIS server: one connection to the session bus, served by one thread.
//
// Concurrency contract:
// - The bus thread (`run`, named "playhead.mpris") owns the libdbus connection, the snapshot it
//   answers from (`current`) and the calls waiting for a handler (`waiting`); no other thread
//   touches them, so libdbus is only ever used from that thread.
// - `lock` guards what other threads hand over: the newest snapshot (`incoming`, from
//   `publish`, called wherever the app changed its now-playing state, usually the main queue),
//   the statuses of finished commands (`finished`, from the main queue), the stop flag, the
//   bus name owned and the wake-up pipe. Writers then write one byte to the pipe, which wakes
//   the bus thread's poll(); nobody waits for the bus thread while holding the lock.
// - Commands go to the main queue through `deliver` and never block it; the bus thread never
//   waits for the main queue either: a command's reply is sent when its status comes back.
internal import CDBus
internal import CDBusLoader
import Foundation

/// Serves `org.mpris.MediaPlayer2` and `org.mpris.MediaPlayer2.Player` on a bus.
final class MPRISServer: @unchecked Sendable {
    typealias Deliver = @Sendable (RemoteRequest, @escaping @Sendable (MPRemoteCommandHandlerStatus) -> Void) -> Void

    private let address: String
    private let identity: MPRISIdentity
    private let warn: @Sendable (String) -> Void
    private let deliver: Deliver

    // Guarded by `lock`.
    private let lock = NSLock()
    private var incoming: NowPlayingSnapshot?
    private var finished: [(call: Int, status: MPRemoteCommandHandlerStatus)] = []
    private var stopping = false
    private var pipeOpen = false
    private var owned: String?
    private var wakeRead: Int32 = -1
    private var wakeWrite: Int32 = -1
    private let ended = DispatchSemaphore(value: 0)

    // Bus thread only.
    private var connection: OpaquePointer?
    private var current = NowPlayingSnapshot()
    private var waiting: [Int: OpaquePointer] = [:]
    private var nextCall = 0

    /// A server for the bus at `address` (not started). `warn` receives the one line saying
    /// why the desktop cannot be reached; `deliver` runs a command and calls back its status.
    init(address: String, identity: MPRISIdentity, warn: @escaping @Sendable (String) -> Void, deliver: @escaping Deliver) {
        self.address = address
        self.identity = identity
        self.warn = warn
        self.deliver = deliver
    }

    /// Starts the bus thread.
    func start() {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            warn(MPRISService.noBusWarning)
            return
        }
        for descriptor in fds {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        lock.withLock {
            (wakeRead, wakeWrite, pipeOpen) = (fds[0], fds[1], true)
        }
        let thread = Thread { [self] in run() }
        thread.name = "playhead.mpris"
        thread.start()
    }

    /// Hands the bus thread a new state to answer from (and to announce what changed).
    func publish(_ snapshot: NowPlayingSnapshot) {
        lock.withLock {
            incoming = snapshot
            wakeLocked()
        }
    }

    /// The bus name owned once connected (`org.mpris.MediaPlayer2.playhead` or an instance name).
    var ownedName: String? { lock.withLock { owned } }

    /// Ends the bus thread, releasing the name; waits up to 2 s for it.
    func stop() {
        let running = lock.withLock { () -> Bool in
            defer { stopping = true; wakeLocked() }
            return pipeOpen && !stopping
        }
        if running { _ = ended.wait(timeout: .now() + 2) }
    }

    private func wakeLocked() {
        guard pipeOpen else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func complete(_ call: Int, _ status: MPRemoteCommandHandlerStatus) {
        lock.withLock {
            finished.append((call, status))
            wakeLocked()
        }
    }

    // MARK: - Bus thread

    private func run() {
        defer { closeEverything() }
        guard playhead_dbus_load() != 0, let connection = connect() else {
            warn(MPRISService.noBusWarning)
            return
        }
        self.connection = connection
        var busDescriptor: Int32 = -1
        _ = dbus_connection_get_unix_fd(connection, &busDescriptor)
        let wake = lock.withLock { wakeRead }
        while !lock.withLock({ stopping }) {
            takeSnapshot()
            sendFinishedReplies()
            guard dbus_connection_read_write(connection, 0) != 0 else {
                warn("playhead: warning: the session bus went away; media keys and desktop media controls are off")
                return
            }
            while let message = dbus_connection_pop_message(connection) {
                handle(message)
                dbus_message_unref(message)
            }
            dbus_connection_flush(connection)
            var descriptors = [pollfd(fd: busDescriptor, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 2, 1000)
            var drain = [UInt8](repeating: 0, count: 64)
            while read(wake, &drain, drain.count) > 0 {}
        }
        // A command that ended the app (Stop) still gets its answer before the name goes.
        sendFinishedReplies()
        dbus_connection_flush(connection)
    }

    /// Connects, registers with the bus and takes the player's name (an instance name when
    /// another process has it). Nil when any step fails.
    private func connect() -> OpaquePointer? {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = dbus_connection_open_private(address, &error) else { return nil }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        let base = "org.mpris.MediaPlayer2.\(identity.busName)"
        var name: String?
        if dbus_bus_register(connection, &error) != 0 {
            for candidate in [base, "\(base).instance\(getpid())"] {
                let reply = dbus_bus_request_name(connection, candidate, UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE), &error)
                if reply == DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER {
                    name = candidate
                    break
                }
                dbus_error_free(&error)
                dbus_error_init(&error)
            }
        }
        guard let name else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            return nil
        }
        lock.withLock { owned = name }
        return connection
    }

    private func closeEverything() {
        for message in waiting.values { dbus_message_unref(message) }
        waiting = [:]
        if let connection {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            self.connection = nil
        }
        lock.withLock {
            if pipeOpen {
                close(wakeRead)
                close(wakeWrite)
                pipeOpen = false
            }
            owned = nil
            stopping = true
        }
        ended.signal()
    }

    private func handle(_ message: OpaquePointer) {
        guard dbus_message_get_type(message) == DBUS_MESSAGE_TYPE_METHOD_CALL, let memberName = dbus_message_get_member(message) else { return }
        let member = String(cString: memberName)
        let interface = dbus_message_get_interface(message).map { String(cString: $0) }
        let path = dbus_message_get_path(message).map { String(cString: $0) }
        guard path == MPRISNames.objectPath else {
            reply(to: message, error: "org.freedesktop.DBus.Error.UnknownObject", "no object \(path ?? "-")")
            return
        }
        let outcome = MPRISMethodRouter.route(
            interface: interface, member: member, arguments: DBusArguments(message), snapshot: current,
            identity: identity, now: ProcessInfo.processInfo.systemUptime)
        switch outcome {
        case .reply(let values):
            reply(to: message) { iter in values.allSatisfy { DBusWriter.append($0, to: iter) } }
        case .variantReply(let value):
            reply(to: message) { DBusWriter.appendVariant(value, to: $0) }
        case .error(let name, let text):
            reply(to: message, error: name, text)
        case .deliver(let request):
            let call = nextCall
            nextCall += 1
            waiting[call] = dbus_message_ref(message)
            deliver(request) { [weak self] status in self?.complete(call, status) }
        }
    }

    private func sendFinishedReplies() {
        let done = lock.withLock { () -> [(call: Int, status: MPRemoteCommandHandlerStatus)] in
            defer { finished = [] }
            return finished
        }
        for (call, status) in done {
            guard let message = waiting.removeValue(forKey: call) else { continue }
            if let failure = MPRISErrors.failure(status) {
                reply(to: message, error: failure.name, failure.message)
            } else {
                reply(to: message) { _ in true }
            }
            dbus_message_unref(message)
        }
    }

    private func reply(to message: OpaquePointer, _ fill: (UnsafeMutablePointer<DBusMessageIter>) -> Bool) {
        guard dbus_message_get_no_reply(message) == 0, let answer = dbus_message_new_method_return(message) else { return }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(answer, &iter)
        if fill(&iter) { send(answer) }
        dbus_message_unref(answer)
    }

    private func reply(to message: OpaquePointer, error name: String, _ text: String) {
        guard dbus_message_get_no_reply(message) == 0, let answer = dbus_message_new_error(message, name, text) else { return }
        send(answer)
        dbus_message_unref(answer)
    }

    private func send(_ message: OpaquePointer) {
        guard let connection else { return }
        _ = dbus_connection_send(connection, message, nil)
    }

    /// Adopts the newest snapshot and announces what changed: PropertiesChanged for the
    /// Player properties (never Position; one no longer offered, such as LoopStatus when its
    /// command lost its target, as invalidated), and Seeked when the elapsed time jumped.
    private func takeSnapshot() {
        guard let next = lock.withLock({ () -> NowPlayingSnapshot? in
            defer { incoming = nil }
            return incoming
        }) else { return }
        let previous = current
        current = next
        let before = MPRISProperties.player(previous, now: nil)
        let after = MPRISProperties.player(next, now: nil)
        let changed = after.filter { name, value in !before.contains { $0.0 == name && $0.1 == value } }
        let gone = before.map(\.0).filter { name in !after.contains { $0.0 == name } }
        if !changed.isEmpty || !gone.isEmpty {
            signal(MPRISNames.properties, "PropertiesChanged") { iter in
                DBusWriter.append(.string(MPRISNames.player), to: iter)
                    && DBusWriter.append(.dictionary(changed), to: iter)
                    && DBusWriter.append(.stringArray(gone), to: iter)
            }
        }
        if let jump = Self.seekedPosition(from: previous, to: next) {
            signal(MPRISNames.player, "Seeked") { DBusWriter.append(.int64(NowPlayingSnapshot.microseconds(jump)), to: $0) }
        }
    }

    /// The new position when the app set an elapsed time more than half a second away from
    /// where the previous state had the same item by then; nil otherwise.
    static func seekedPosition(from previous: NowPlayingSnapshot, to next: NowPlayingSnapshot) -> Double? {
        guard let old = previous.info, let new = next.info, previous.trackNumber == next.trackNumber,
            new.setAt != old.setAt
        else { return nil }
        let expected = previous.position(at: new.setAt)
        return abs(new.elapsed - expected) > 0.5 ? new.elapsed : nil
    }

    private func signal(_ interface: String, _ member: String, _ fill: (UnsafeMutablePointer<DBusMessageIter>) -> Bool) {
        guard let message = dbus_message_new_signal(MPRISNames.objectPath, interface, member) else { return }
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        if fill(&iter) { send(message) }
        dbus_message_unref(message)
    }
}
