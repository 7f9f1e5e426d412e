// Playhead: the clock a live DASH manifest is timed by. A dynamic MPD lists what is available
// by the wall clock, and a machine's clock may be off by seconds or minutes from the
// packager's: ahead, the player asks for segments not yet made; behind, it sees none. The MPD's
// `UTCTiming` elements name where the packager's time can be read: in the manifest itself
// (`direct`), from a URL whose body is an ISO 8601 date (`http-iso`, `http-xsdate`), or from
// the `Date` header field of a URL's HEAD response (`http-head`, to the second). The first
// that answers gives the offset added to the machine's clock wherever the live manifest is
// read; none (or none that answers) leaves the machine's clock, as before. The NTP schemes
// (which need an NTP client) and `http-ntp` are not read. Once measured, the packager's time
// runs on from the measurement by the time since boot (`DASHPackagerClock`), so a machine
// clock set while playing (NTP putting a kiosk's clock right minutes after boot, a user
// changing it) does not move the live window. While the item plays the sources are asked
// again now and then, so this machine's drift from the packager is corrected
// (DASHClockSync.swift).
//
// Concurrency: pure functions and values; the opening thread measures (blocking on the
// network), the loaders' threads read the clock.
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The packager's wall clock for a live manifest.
struct DASHPackagerClock: Sendable {
    /// The packager's time at a moment of the time since boot (nil: the machine's clock).
    private let measured: (date: Date, sinceBoot: Double)?

    /// The machine's own clock (no time source answered): a correction of it while playing
    /// puts the live window right, so it is followed.
    static let machine = DASHPackagerClock(measured: nil)

    private init(measured: (date: Date, sinceBoot: Double)?) { self.measured = measured }

    /// The packager's clock `offset` seconds from the machine's, as measured at `date` (the
    /// machine's time then), `sinceBoot` seconds after boot.
    init(offset: Double, at date: Date = Date(), sinceBoot: Double = DASHPackagerClock.secondsSinceBoot()) {
        measured = (date.addingTimeInterval(offset), sinceBoot)
    }

    /// The packager's time now: the measurement run on by the time since boot; the machine's
    /// clock (`date`) when there was none.
    func now(date: Date = Date(), sinceBoot: Double = DASHPackagerClock.secondsSinceBoot()) -> Date {
        guard let measured else { return date }
        return measured.date.addingTimeInterval(sinceBoot - measured.sinceBoot)
    }

    /// Seconds since boot, suspended time included (`CLOCK_BOOTTIME`: a machine that slept
    /// comes back to the live window of its wall clock, not of the moment it slept).
    static func secondsSinceBoot() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

extension DASHManifest {
    /// Where a live manifest's time can be read.
    enum ClockSource: Equatable, Sendable {
        /// The packager's time when it wrote the manifest.
        case direct(Date)
        /// A URL whose body is the packager's time, as ISO 8601.
        case server(URL)
        /// A URL whose HEAD response's `Date` field is the packager's time (to the second).
        case serverHeader(URL)
    }

    /// The `UTCTiming` sources of the dynamic MPD in `data` that Playhead reads, in the order
    /// given (URLs resolved against `base`); empty for a static MPD or one naming none.
    static func clockSources(_ data: Data, base: URL) -> [ClockSource] {
        XMLTree.parse(data).map { clockSources($0, base: base) } ?? []
    }

    /// `clockSources(_:base:)` of an MPD already read into a tree.
    static func clockSources(_ mpd: XMLTree, base: URL) -> [ClockSource] {
        guard mpd.name == "MPD", mpd.attributes["type"] == "dynamic" else { return [] }
        return mpd.children("UTCTiming").compactMap { node in
            guard let scheme = node.attributes["schemeIdUri"], let value = node.attributes["value"] else { return nil }
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            if scheme.hasPrefix("urn:mpeg:dash:utc:direct:") { return date(trimmed).map(ClockSource.direct) }
            let isHead = scheme.hasPrefix("urn:mpeg:dash:utc:http-head:")
            guard isHead || scheme.hasPrefix("urn:mpeg:dash:utc:http-iso:") || scheme.hasPrefix("urn:mpeg:dash:utc:http-xsdate:"),
                // Several URLs may be given, separated by spaces: the first is asked.
                let first = trimmed.split(separator: " ").first,
                let url = URL(string: String(first), relativeTo: base)?.absoluteURL
            else { return nil }
            return isHead ? .serverHeader(url) : .server(url)
        }
    }

    /// The date a time server's `body` states (ISO 8601, surrounding space and quotes allowed).
    static func serverDate(_ body: Data) -> Date? {
        guard body.count < 256, let text = String(data: body, encoding: .utf8) else { return nil }
        return date(text.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(["\""])))
    }

    /// The date an HTTP `Date` header field states (RFC 9110's IMF-fixdate, "Sun, 06 Nov 1994
    /// 08:49:37 GMT").
    static func headerDate(_ field: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.date(from: field.trimmingCharacters(in: .whitespaces))
    }

    /// The offset (seconds to add to the machine's clock) from the first of `sources` that
    /// answers: a `direct` date against `received` (when the manifest arrived), a server's
    /// date against the middle of its request (a `Date` field, whole seconds, against its
    /// middle less half a second). `ask` fetches a server's body, `askHeader` the `Date`
    /// field of a HEAD response (nil: no answer). Nil when none answers.
    static func clockOffset(
        from sources: [ClockSource], received: Date, ask: (URL) -> Data?, askHeader: (URL) -> String? = { _ in nil },
        now: () -> Date = Date.init
    ) -> Double? {
        for source in sources {
            switch source {
            case .direct(let date):
                return date.timeIntervalSince(received)
            case .server(let url):
                let sent = now()
                guard let body = ask(url), let date = serverDate(body) else { continue }
                let answered = now()
                return date.timeIntervalSince(sent.addingTimeInterval(answered.timeIntervalSince(sent) / 2))
            case .serverHeader(let url):
                let sent = now()
                guard let field = askHeader(url), let date = headerDate(field) else { continue }
                let answered = now()
                // The field drops the fraction of its second: half a second on average.
                return date.timeIntervalSince(sent.addingTimeInterval(answered.timeIntervalSince(sent) / 2)) + 0.5
            }
        }
        return nil
    }
}
