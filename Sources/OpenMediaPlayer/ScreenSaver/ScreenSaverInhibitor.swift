// Playhead: keeps the desktop's screensaver and display sleep off while video plays, through
// `org.freedesktop.ScreenSaver` on the session bus. A player window asks for a hold of its own
// and says at each play, pause, end or close whether it wants the display awake; the
// inhibitor turns that into `Inhibit` / `UnInhibit` calls.
//
// Concurrency contract:
// - `queue` (serial, "playhead.screensaver") owns the transport (the libdbus connection) and
//   every hold's cookie and applied state (`entries`); the bus calls run there and only there,
//   so they never block a window's thread or the main queue.
// - A hold's wanted state and its flags sit behind the hold's own lock: `setActive` (the
//   window's thread) records the wish and schedules the queue to apply it `settle` seconds
//   later, so a quick pause/play makes no calls at all. `release` applies at once.
// - `warned` (the one warning line) and `fallingBack` are behind `lock`.
import Foundation

/// Holds the screensaver off through the session bus's `org.freedesktop.ScreenSaver` service
/// while the holds it hands out are active.
///
/// ```swift
/// let hold = ScreenSaverInhibitor.shared.hold(reason: "Playing video")
/// hold?.setActive(true)    // playing: the display stays awake
/// hold?.setActive(false)   // paused: the screensaver may run again
/// ```
///
/// The bus is the one `DBUS_SESSION_BUS_ADDRESS` names, reached on the first call; without it
/// (or without libdbus, or with no screensaver service) the holds report `isFallingBack` and
/// one warning line says the desktop's screensaver cannot be reached.
public final class ScreenSaverInhibitor: @unchecked Sendable {
    /// The inhibitor for the session bus, naming the application "Playhead".
    public static let shared = ScreenSaverInhibitor(
        address: ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"],
        application: "Playhead")

    /// The line printed (once) when the screensaver service cannot be reached.
    static let unreachableWarning =
        "playhead: warning: the screensaver service on the session bus does not answer; SDL holds the screensaver off while the window is open"

    /// The name the screensaver service shows for the inhibition.
    public let application: String
    /// Seconds a wish waits before it reaches the bus (a pause and a play inside it cancel out).
    let settle: Double
    private let address: String?
    private let queue = DispatchQueue(label: "playhead.screensaver")
    private let makeTransport: (String) -> any ScreenSaverTransport
    private let warn: @Sendable (String) -> Void

    // Guarded by `lock`.
    private let lock = NSLock()
    private var warned = false
    private var unreachable = false
    private var nextID = 0

    // Queue only.
    private var transport: (any ScreenSaverTransport)?
    private var entries: [Int: Entry] = [:]

    private struct Entry {
        weak var hold: ScreenSaverHold?
        var cookie: UInt32?
        var reason: String
    }

    /// An inhibitor for the bus at `address` (nil or empty: no bus, no holds), naming the
    /// application `application`.
    public convenience init(address: String?, application: String) {
        self.init(
            address: address, application: application, settle: 0.5,
            makeTransport: { ScreenSaverBus(address: $0) },
            warn: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) })
    }

    /// The full form: tests pass a transport of their own and a long `settle`.
    init(
        address: String?, application: String, settle: Double,
        makeTransport: @escaping (String) -> any ScreenSaverTransport,
        warn: @escaping @Sendable (String) -> Void
    ) {
        self.address = address
        self.application = application
        self.settle = settle
        self.makeTransport = makeTransport
        self.warn = warn
    }

    /// A new hold (inactive), or nil when there is no session bus address: then keep the
    /// display awake some other way.
    public func hold(reason: String) -> ScreenSaverHold? {
        guard let address, !address.isEmpty else { return nil }
        let (id, fallingBack) = lock.withLock { () -> (Int, Bool) in
            defer { nextID += 1 }
            return (nextID, unreachable)
        }
        let hold = ScreenSaverHold(id: id, inhibitor: self, fallingBack: fallingBack)
        queue.async { [self] in entries[id] = Entry(hold: hold, cookie: nil, reason: reason) }
        return hold
    }

    /// Applies every hold's latest wish now, then waits (up to `timeout` seconds) until the
    /// calls are made: for a process about to exit, and for tests.
    public func flush(timeout: Double = 2) {
        let done = DispatchSemaphore(value: 0)
        queue.async { [self] in
            for id in entries.keys { apply(id) }
            done.signal()
        }
        _ = done.wait(timeout: .now() + timeout)
    }

    // MARK: - From the holds

    /// Applies hold `id`'s wish after `settle` seconds (at once when `now`).
    func schedule(_ id: Int, now: Bool) {
        if now {
            queue.async { [self] in apply(id) }
        } else {
            queue.asyncAfter(deadline: .now() + settle) { [self] in apply(id) }
        }
    }

    /// Hold `id` is gone: let go of its cookie.
    func forget(_ id: Int) {
        queue.async { [self] in
            if let cookie = entries[id]?.cookie { _ = bus()?.unInhibit(cookie) }
            entries[id] = nil
        }
    }

    // MARK: - On the queue

    private func apply(_ id: Int) {
        guard var entry = entries[id] else { return }
        let wanted = entry.hold?.wish() ?? false
        // Once the service failed to answer, no more asking (the holds fell back).
        if wanted, lock.withLock({ unreachable }) { return }
        if wanted, entry.cookie == nil {
            guard let cookie = bus()?.inhibit(application: application, reason: entry.reason) else {
                giveUp()
                return
            }
            entry.cookie = cookie
        } else if !wanted, let cookie = entry.cookie {
            _ = bus()?.unInhibit(cookie)
            entry.cookie = nil
        }
        entries[id] = entry
    }

    private func bus() -> (any ScreenSaverTransport)? {
        if let transport { return transport }
        guard let address else { return nil }
        let made = makeTransport(address)
        transport = made
        return made
    }

    /// The service did not answer an Inhibit: every hold falls back, with one warning.
    private func giveUp() {
        let holds = entries.values.compactMap(\.hold)
        let first = lock.withLock { () -> Bool in
            defer {
                unreachable = true
                warned = true
            }
            return !warned
        }
        for hold in holds { hold.fallBack() }
        if first { warn(Self.unreachableWarning) }
    }

    /// Cookies held now (tests).
    var heldCookies: [UInt32] { queue.sync { entries.values.compactMap(\.cookie) } }
}

/// One window's claim on the display staying awake, from a `ScreenSaverInhibitor`.
///
/// Tell it what you want as often as you like: quick changes are merged, and the bus hears
/// only what still holds after half a second. Releasing (or dropping the hold) lets go at once.
public final class ScreenSaverHold: @unchecked Sendable {
    private let id: Int
    private let inhibitor: ScreenSaverInhibitor
    // Guarded by `lock`.
    private let lock = NSLock()
    private var wanted = false
    private var released = false
    private var fellBack: Bool

    init(id: Int, inhibitor: ScreenSaverInhibitor, fallingBack: Bool) {
        self.id = id
        self.inhibitor = inhibitor
        self.fellBack = fallingBack
    }

    deinit { inhibitor.forget(id) }

    /// Asks for the display to stay awake (true) or lets it sleep (false). Returns at once;
    /// the call reaches the bus shortly after unless the wish changes back first.
    public func setActive(_ active: Bool) {
        let changed = lock.withLock { () -> Bool in
            guard !released, wanted != active else { return false }
            wanted = active
            return true
        }
        if changed { inhibitor.schedule(id, now: false) }
    }

    /// Lets go now; later `setActive` calls are ignored.
    public func release() {
        let first = lock.withLock { () -> Bool in
            defer {
                released = true
                wanted = false
            }
            return !released
        }
        if first { inhibitor.schedule(id, now: true) }
    }

    /// True once the screensaver service could not be reached: keep the display awake some
    /// other way.
    public var isFallingBack: Bool { lock.withLock { fellBack } }

    func wish() -> Bool { lock.withLock { wanted } }
    func fallBack() { lock.withLock { fellBack = true } }
}
