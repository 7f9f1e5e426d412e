// Playhead: a static MPD of FFmpeg's DASH muxer (`SegmentTemplate` with a `SegmentTimeline`)
// served as a live one, as a live packager would: `type="dynamic"` with an availability start
// some seconds ago, a time shift buffer, and either the timeline cut to the segments whole by
// now (the window's first one numbered by `startNumber`), rewritten as the clock moves, or a
// fixed segment duration the client counts from the clock itself. `end()` serves the static
// manifest from then on, as a packager does when the event ends. The packager's clock may be
// set ahead of the machine's, with its time served at a path the manifest names in a
// `UTCTiming` element: as an ISO 8601 body (`http-iso`) or as the `Date` header field of its
// responses (`http-head`). It may say it has moved (`Location`): served at the new path too,
// and at the old one until `leaveOldPath()`.
//
// Concurrency: the timer's ticks, `end()` and `leaveOldPath()` change the server's rules under
// `lock` (which guards `ended` and `oldPathLeft`); any thread may call `end()` and
// `leaveOldPath()`; `stop()` belongs to the test's thread.
import Foundation

/// A live DASH manifest over a static one's segments; see the file comment.
public final class LiveDASHManifest: @unchecked Sendable {
    /// How the packager's time is served at `timePath`.
    public enum TimeScheme: Sendable, CaseIterable {
        /// An ISO 8601 body (`urn:mpeg:dash:utc:http-iso:2014`).
        case isoBody
        /// The responses' `Date` header field (`urn:mpeg:dash:utc:http-head:2014`).
        case dateHeader
    }

    /// How the live manifest addresses its segments.
    public enum Addressing: Sendable {
        /// A `SegmentTimeline` listing the segments whole by now.
        case timeline
        /// A fixed `duration` of this many seconds and no timeline.
        case fixedDuration(seconds: Double)
    }

    private let server: LoopbackHTTPServer
    private let path: String
    private let source: String
    private let addressing: Addressing
    /// When the presentation's time zero was (or will be) available, by the machine's clock.
    public let availabilityStart: Date
    private let depth: Double
    /// Seconds the packager's clock is ahead of the machine's.
    private let clockAhead: Double
    /// Where the packager's time is served, when it is.
    private let timePath: String?
    /// The manifest's `suggestedPresentationDelay`, seconds, when it has one.
    private let suggestedDelay: Double?
    /// The path the manifest says it moved to (its `Location`), when it says so.
    private let movedTo: String?
    private let timeScheme: TimeScheme
    private let lock = NSLock()
    private var ended = false
    /// True once the old path answers 404 (guarded by `lock`).
    private var oldPathLeft = false
    private var timer: DispatchSourceTimer?

    /// Serves `source` (the static manifest's text) as a live manifest at `path` on `server`,
    /// its time zero `startedAgo` seconds before now, `depth` seconds of time shift buffer; its
    /// clock `clockAhead` seconds ahead of the machine's, its time served at `timePath` (named
    /// by the manifest's `UTCTiming`, as `timeScheme` says) when given; suggesting to play `suggestedDelay` seconds
    /// behind the newest segment when given; saying it moved to `movedTo` (a path on `server`)
    /// and served there too when given.
    public init(
        server: LoopbackHTTPServer, source: String, path: String, addressing: Addressing, startedAgo: Double,
        depth: Double = 8, clockAhead: Double = 0, timePath: String? = nil, timeScheme: TimeScheme = .isoBody,
        suggestedDelay: Double? = nil, movedTo: String? = nil
    ) {
        self.timeScheme = timeScheme
        self.movedTo = movedTo
        self.suggestedDelay = suggestedDelay
        self.server = server
        self.source = source
        self.path = path
        self.addressing = addressing
        self.depth = depth
        self.clockAhead = clockAhead
        self.timePath = timePath
        availabilityStart = Date(timeIntervalSinceNow: -startedAgo)
        publish()
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + 0.2, repeating: 0.2)
        timer.setEventHandler { [weak self] in self?.publish() }
        timer.resume()
        self.timer = timer
    }

    /// From now on the static manifest is served.
    public func end() {
        lock.lock()
        ended = true
        let paths = (oldPathLeft ? [] : [path]) + (movedTo.map { [$0] } ?? [])
        lock.unlock()
        for path in paths { server.setRule(.content(Data(source.utf8), contentType: "application/dash+xml"), for: path) }
    }

    /// From now on the old path answers 404: only the place the manifest moved to serves it.
    public func leaveOldPath() {
        lock.lock()
        defer { lock.unlock() }
        oldPathLeft = true
        server.setRule(.notFound, for: path)
    }

    /// Stops rewriting the manifest.
    public func stop() {
        timer?.cancel()
        timer = nil
    }

    private func publish() {
        lock.lock()
        defer { lock.unlock() }
        guard !ended else { return }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let timePath {
            let now = Date(timeIntervalSinceNow: clockAhead)
            switch timeScheme {
            case .isoBody:
                server.setRule(.content(Data(formatter.string(from: now).utf8), contentType: "text/plain"), for: timePath)
            case .dateHeader:
                let header = DateFormatter()
                header.locale = Locale(identifier: "en_US_POSIX")
                header.timeZone = TimeZone(identifier: "GMT")
                header.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
                var rule = LoopbackHTTPServer.Rule.content(Data(), contentType: "text/plain")
                rule.headerFields = ["Date": header.string(from: now)]
                server.setRule(rule, for: timePath)
            }
        }
        var text = Self.live(
            source, at: Date().timeIntervalSince(availabilityStart), start: availabilityStart.addingTimeInterval(clockAhead),
            depth: depth, addressing: addressing)
        if let suggestedDelay {
            text = text.replacingOccurrences(
                of: #"type="dynamic""#, with: #"type="dynamic" suggestedPresentationDelay="PT\#(suggestedDelay)S""#)
        }
        if let timePath {
            text = text.replacingOccurrences(
                of: "</MPD>",
                with: #"<UTCTiming schemeIdUri="urn:mpeg:dash:utc:\#(timeScheme == .isoBody ? "http-iso" : "http-head"):2014" value="\#(timePath)"/></MPD>"#)
        }
        if let movedTo {
            text = text.replacingOccurrences(of: "<Period", with: "<Location>\(movedTo)</Location><Period")
            server.setRule(.content(Data(text.utf8), contentType: "application/dash+xml"), for: movedTo)
        }
        if !oldPathLeft { server.setRule(.content(Data(text.utf8), contentType: "application/dash+xml"), for: path) }
    }

    /// The live manifest of `source` `elapsed` seconds after `start` (see the file comment).
    public static func live(
        _ source: String, at elapsed: Double, start: Date, depth: Double, addressing: Addressing
    ) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var text = replacing(#"mediaPresentationDuration="[^"]*""#, in: source) { _ in "" }
        text = text.replacingOccurrences(
            of: #"type="static""#,
            with: #"type="dynamic" availabilityStartTime="\#(formatter.string(from: start))" "#
                + #"timeShiftBufferDepth="PT\#(depth)S" minimumUpdatePeriod="PT1S""#)
        let template = #"<SegmentTemplate([^>]*)startNumber="1">\s*<SegmentTimeline>(.*?)</SegmentTimeline>"#
        return replacing(template, in: text) { groups in
            let attributes = groups[1]
            let timescale = Double(first(#"timescale="(\d+)""#, in: attributes) ?? "1") ?? 1
            // Every segment of the timeline as (t, d).
            var segments: [(Int64, Int64)] = []
            var time: Int64 = 0
            for entry in matches(#"<S ([^>]*)/>"#, in: groups[2]) {
                let duration = Int64(first(#"d="(\d+)""#, in: entry[1]) ?? "0") ?? 0
                if let stated = first(#"t="(\d+)""#, in: entry[1]).flatMap(Int64.init) { time = stated }
                for _ in 0...(Int(first(#"r="(\d+)""#, in: entry[1]) ?? "0") ?? 0) {
                    segments.append((time, duration))
                    time += duration
                }
            }
            switch addressing {
            case .fixedDuration(let seconds):
                return "<SegmentTemplate\(attributes)startNumber=\"1\" duration=\"\(Int64(seconds * timescale))\">"
            case .timeline:
                let now = Int64(elapsed * timescale), earliest = Int64((elapsed - depth) * timescale)
                let kept = segments.enumerated().filter { $0.element.0 + $0.element.1 <= now && $0.element.0 + $0.element.1 >= earliest }
                let listed = kept.map { "<S t=\"\($0.element.0)\" d=\"\($0.element.1)\"/>" }.joined()
                return "<SegmentTemplate\(attributes)startNumber=\"\((kept.first?.offset ?? 0) + 1)\">"
                    + "<SegmentTimeline>\(listed)</SegmentTimeline>"
            }
        }
    }

    private static func matches(_ pattern: String, in text: String) -> [[String]] {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else {
            return []
        }
        let whole = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: whole).map { match in
            (0..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }

    private static func first(_ pattern: String, in text: String) -> String? {
        matches(pattern, in: text).first.map { $0.count > 1 ? $0[1] : $0[0] }
    }

    /// `text` with every match of `pattern` replaced by `replacement` of its groups.
    private static func replacing(_ pattern: String, in text: String, _ replacement: ([String]) -> String) -> String {
        guard let expression = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else {
            return text
        }
        var result = text
        for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let range = Range(match.range, in: result) else { continue }
            let groups = (0..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
            result.replaceSubrange(range, with: replacement(groups))
        }
        return result
    }
}
