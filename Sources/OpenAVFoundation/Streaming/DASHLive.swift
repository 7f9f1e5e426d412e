// Playhead: a dynamic (live) DASH manifest as live media playlists for Playhead's loader. At
// each read (the open, then every reload of the manifest at the target duration) the
// segments listed are those whole by the wall clock (the packager's where the manifest names
// it: DASHClock.swift), ending by `availabilityStartTime` plus the Period's start plus their
// end, and not yet out of the time shift buffer (`timeShiftBufferDepth`): a fixed-duration
// `SegmentTemplate`'s from the clock alone, a `SegmentTimeline`'s from its entries; an
// `availabilityTimeOffset` (BaseURL and template levels added) lists each that much sooner,
// unless segments are not whole when available (low-latency chunked delivery is not modelled).
// Segment times stay the Period's (the same for every
// Representation, so the video and sound loaders agree); each segment's program date is its
// availability start's; a `suggestedPresentationDelay` is the playlists' hold-back (where live
// playback starts, behind the newest segment's end); a `Location` is where the manifest is
// read from at the next reloads. A manifest that turns static (the event ended) ends the stream once
// its last segment is read. Segment numbers for the loader's timeline come from their times
// (`DASHLiveNumbering`), since a packager writing `$Time$` need not keep `startNumber` in step
// with its sliding window. Several Periods (an advert break inserted into a channel) are
// joined as a static manifest's are (DASHPeriods.swift), each opening a discontinuity
// sequence; the loaders find their Representations in every reload by rank, since a new
// Period names its own.
//
// Concurrency: `live` is a pure function. A `DASHLiveNumbering` belongs to one loader (or one
// live text set's reader): it is used on the opening thread, then on that loader's (reader's)
// thread, behind its own lock.
import Foundation

extension DASHManifest {
    /// The dynamic MPD in `data` as it stands at `now` (see the file comment), with URLs
    /// resolved against `base`: the Periods begun by now whose segments are still inside the
    /// time shift buffer, joined on the presentation's timeline (each Period a discontinuity
    /// sequence numbered by its start in milliseconds, the latest naming the variants). Nil
    /// when it is not dynamic, has no availability start, a remote Period or Period timing it
    /// cannot tell, or holds something the loader does not model.
    static func live(_ data: Data, base: URL, now: Date) -> DASHManifest? {
        XMLTree.parse(data).flatMap { live($0, base: base, now: now) }
    }

    /// `live(_:base:now:)` of an MPD already read into a tree.
    static func live(_ mpd: XMLTree, base: URL, now: Date) -> DASHManifest? {
        guard mpd.name == "MPD", mpd.attributes["type"] == "dynamic",
            let availabilityStart = mpd.attributes["availabilityStartTime"].flatMap(Self.date),
            let starts = periodStarts(of: mpd)
        else { return nil }
        let nodes = mpd.children("Period")
        let depth = mpd.attributes["timeShiftBufferDepth"].flatMap(isoDuration) ?? .infinity
        let total = mpd.attributes["mediaPresentationDuration"].flatMap(isoDuration)
        let elapsed = now.timeIntervalSince(availabilityStart)
        let mpdBase = baseURL(of: mpd, under: base)
        var periods: [DASHManifest] = []
        for (index, node) in nodes.enumerated() where starts[index] < elapsed {
            let start = starts[index]
            let end: Double? = index + 1 < nodes.count ? starts[index + 1] : total
            let length = node.attributes["duration"].flatMap(isoDuration) ?? end.map { $0 - start } ?? .infinity
            guard length > 0 else { return nil }
            // A Period over before the time shift buffer begins has nothing left to fetch.
            if start + length < elapsed - depth { continue }
            guard
                let read = period(
                    node, base: baseURL(of: node, under: mpdBase), length: length,
                    available: max(0, elapsed - depth - start)...(elapsed - start), mpd: mpd)
            else { return nil }
            // One that lists nothing yet (just begun) waits for its first segment.
            guard read.variants.contains(where: { !$0.playlist.segments.isEmpty }) else { continue }
            let origin = availabilityStart.addingTimeInterval(start)
            var dated = read.changingPlaylists { playlist in
                HLSMediaPlaylist(
                    targetDuration: playlist.targetDuration,
                    segments: playlist.segments.map { segment in
                        var dated = segment
                        dated.programDate = origin.addingTimeInterval(segment.start)
                        return dated
                    }, isEnded: false, isEncrypted: false, initialisation: playlist.initialisation,
                    mediaSequence: playlist.mediaSequence)
            }
            dated.periodStart = start
            periods.append(dated)
        }
        guard
            var manifest = joining(
                periods, main: periods.count - 1, timelines: periods.map { Int(($0.periodStart * 1000).rounded()) },
                ended: false, fillsMissingText: true)
        else { return nil }
        // Text sets of segments are followed live, as the video (whole files are left out
        // when the Periods are joined).
        // Where the packager suggests playing, behind the newest segment; where the manifest
        // is to be read from now on.
        let delay = mpd.attributes["suggestedPresentationDelay"].flatMap(isoDuration).flatMap { $0 >= 0 ? $0 : nil }
        let location = mpd.child("Location").flatMap { element in
            URL(string: element.text.trimmingCharacters(in: .whitespacesAndNewlines), relativeTo: base)?.absoluteURL
        }
        if delay != nil || location != nil {
            manifest = manifest.changingPlaylists { playlist in
                var changed = playlist
                changed.holdBack = delay ?? changed.holdBack
                changed.relocation = location
                return changed
            }
        }
        return manifest
    }

    /// How much sooner than its end a segment may be fetched (seconds): the sum of the
    /// `availabilityTimeOffset`s of the `BaseURL` elements of `levels` (the first `BaseURL`
    /// of each, the one segment URLs are resolved against) and of `template` (the segment
    /// template as its levels merge it), as ISO/IEC 23009-1 adds them (a CDN that holds
    /// segments before the packager's clock says so, a low-latency packager). 0 when one of
    /// them says a segment is not whole when it becomes available
    /// (`availabilityTimeComplete="false"`: chunked low-latency delivery, which the loader,
    /// fetching whole segments and timing them for its throughput estimate, does not model).
    /// Infinite ("INF") when every segment of the Period is.
    static func availabilityTimeOffset(baseLevels: [XMLTree], template: XMLTree?) -> Double {
        let elements = baseLevels.compactMap { $0.child("BaseURL") } + [template].compactMap { $0 }
        if elements.contains(where: { $0.attributes["availabilityTimeComplete"] == "false" }) { return 0 }
        return elements.compactMap { element in
            element.attributes["availabilityTimeOffset"].flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        }.filter { !$0.isNaN && $0 > 0 }.reduce(0, +)
    }

    /// `available` (seconds of the Period whose segments can be fetched) reaching `offset`
    /// further (``availabilityTimeOffset(baseLevels:template:)``); an infinite offset reaches
    /// the Period's end when it has one.
    static func earlier(_ available: ClosedRange<Double>, by offset: Double, length: Double) -> ClosedRange<Double> {
        guard offset > 0 else { return available }
        let end = offset.isFinite ? available.upperBound + offset : length
        return end.isFinite ? available.lowerBound...max(available.lowerBound, end) : available
    }

    /// A live manifest turned static (its event ended), on the timeline `live` gives: every
    /// Period's segments at the Period's start, each Period a discontinuity sequence numbered
    /// by its start in milliseconds, the last naming the variants; nil as `periods` and
    /// `joining` say.
    static func ended(_ mpd: XMLTree, base: URL) -> DASHManifest? {
        guard let periods = periods(mpd, base: base), !periods.isEmpty else { return nil }
        return joining(
            periods, main: periods.count - 1, timelines: periods.map { Int(($0.periodStart * 1000).rounded()) },
            ended: true, fillsMissingText: true)
    }

    /// The manifest with `change` made to the playlist of every video and audio Representation
    /// and every text set of segments.
    func changingPlaylists(_ change: (HLSMediaPlaylist) -> HLSMediaPlaylist) -> DASHManifest {
        func changed(_ representation: Representation) -> Representation {
            var copy = representation
            copy.playlist = change(representation.playlist)
            return copy
        }
        var copy = self
        copy.variants = variants.map(changed)
        copy.audio = audio.map {
            AudioSet(
                name: $0.name, language: $0.language, isDefault: $0.isDefault, representations: $0.representations.map(changed))
        }
        copy.subtitles = subtitles.map { track in
            var changed = track
            changed.playlist = track.playlist.map(change)
            return changed
        }
        return copy
    }

    /// Where each Period of `mpd` starts: stated, else where the one before ends (a first
    /// without one at zero); nil when a Period is remote or a start cannot be told.
    static func periodStarts(of mpd: XMLTree) -> [Double]? {
        let nodes = mpd.children("Period")
        guard !nodes.isEmpty, nodes.count <= mostPeriods,
            !nodes.contains(where: { $0.attributes.keys.contains { $0.hasSuffix("href") } })
        else { return nil }
        var starts: [Double] = []
        for (index, node) in nodes.enumerated() {
            if let stated = node.attributes["start"].flatMap(isoDuration) {
                starts.append(stated)
            } else if index == 0 {
                starts.append(0)
            } else if let length = nodes[index - 1].attributes["duration"].flatMap(isoDuration) {
                starts.append(starts[index - 1] + length)
            } else {
                return nil
            }
        }
        return starts
    }

    /// An `availabilityStartTime` (ISO 8601, with or without fractional seconds).
    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        // No zone: UTC, as MPDs mean it.
        return formatter.date(from: text + "Z")
    }
}

/// The segment numbers of one loader's live DASH playlists, by segment time: a segment keeps
/// the number it was first given, whichever Representation listed it, and a new one takes the
/// next after the latest (plus the segments between, at its duration, when some were never
/// listed). The first read keeps the template's numbers.
final class DASHLiveNumbering: @unchecked Sendable {
    /// Segment starts closer than this are the same segment (seconds).
    static let tolerance = 0.000_5
    /// How many segments are remembered.
    static let remembered = 4_096

    private let lock = NSLock()
    /// Guarded by `lock`: (start, end, number) of the segments numbered so far, by start.
    private var known: [(start: Double, end: Double, number: Int)] = []

    /// `playlist` with its segments numbered by time (its media sequence that of its first).
    func numbered(_ playlist: HLSMediaPlaylist) -> HLSMediaPlaylist {
        lock.lock()
        defer { lock.unlock() }
        let segments = playlist.segments.map { segment -> HLSSegment in
            let assigned = self.number(of: segment)
            var copy = HLSSegment(
                url: segment.url, sequence: assigned, start: segment.start, duration: segment.duration,
                byteRange: segment.byteRange, discontinuity: segment.discontinuity,
                discontinuitySequence: segment.discontinuitySequence, map: segment.map, key: segment.key)
            copy.programDate = segment.programDate
            copy.mediaStart = segment.mediaStart
            copy.sectionEnd = segment.sectionEnd
            return copy
        }
        if known.count > Self.remembered { known.removeFirst(known.count - Self.remembered) }
        var numbered = HLSMediaPlaylist(
            targetDuration: playlist.targetDuration, segments: segments, isEnded: playlist.isEnded,
            isEncrypted: playlist.isEncrypted, initialisation: playlist.initialisation,
            mediaSequence: segments.first?.sequence ?? playlist.mediaSequence)
        numbered.holdBack = playlist.holdBack
        numbered.relocation = playlist.relocation
        return numbered
    }

    /// The number of `segment` (called with `lock` held), remembered when new.
    private func number(of segment: HLSSegment) -> Int {
        if let match = known.last(where: { abs($0.start - segment.start) < Self.tolerance }) { return match.number }
        let step = max(segment.duration, 0.001)
        let number: Int
        if let last = known.last, segment.start > last.start {
            number = last.number + 1 + max(0, Int(((segment.start - last.end) / step).rounded()))
        } else if let first = known.first, segment.start < first.start {
            // Older than anything seen (not expected of a sliding window): before the first.
            number = first.number - max(1, Int(((first.start - segment.start) / step).rounded()))
            known.insert((segment.start, segment.start + segment.duration, number), at: 0)
            return number
        } else if known.isEmpty {
            number = segment.sequence
        } else {
            // Between two known segments, matching neither: after the one before it.
            let before = known.last { $0.start < segment.start }
            return (before?.number ?? segment.sequence)
        }
        known.append((segment.start, segment.start + segment.duration, number))
        return number
    }
}
