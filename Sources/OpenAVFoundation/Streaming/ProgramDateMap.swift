// Playhead: the wall-clock dates of an HLS stream's timeline, from its media playlist's
// `EXT-X-PROGRAM-DATE-TIME` tags, for `AVPlayerItem.currentDate()` and `seek(to: Date)`.
//
// Concurrency: an immutable value, made on the thread that opens the stream (or, for a live
// window after a reload, the loader thread) and read anywhere.
import Foundation

/// Which date each moment of an item's timeline shows, segment by segment.
struct ProgramDateMap: Equatable, Sendable {
    /// One dated stretch of the timeline: `seconds` from `start` show `date` onwards.
    struct Span: Equatable, Sendable {
        let start: Double
        let seconds: Double
        let date: Date
    }

    /// The dated segments, in timeline order.
    let spans: [Span]
    /// The playlist's date ranges (`EXT-X-DATERANGE`) as read at open: what an item whose
    /// stream libavformat reads reports (Playhead's loader reports its own, and follows a live
    /// playlist's).
    let dateRanges: [HLSDateRange]

    /// How many segments from a live playlist's end libavformat starts (its `live_start_index`
    /// default): the item's timeline begins at that segment.
    static let liveStartSegmentsFromEnd = 3

    /// The dates of a media playlist on the item's timeline, or nil when no segment is dated.
    /// A finished (VOD) playlist's timeline starts at its first segment, as the item's does; a
    /// live one's at the segment libavformat starts with, and moments past the playlist's last
    /// dated segment carry its clock on (the playlist is read once, at open). `fromStart`: the
    /// timeline starts at the first segment live or not (Playhead's own loader's timeline);
    /// `keepsSegmentTimes`: the item's time is the segments' own (a DASH presentation's).
    init?(_ playlist: HLSMediaPlaylist, fromStart: Bool = false, keepsSegmentTimes: Bool = false) {
        let first =
            playlist.isEnded || fromStart ? 0 : max(0, playlist.segments.count - Self.liveStartSegmentsFromEnd)
        guard first < playlist.segments.count else { return nil }
        let origin = keepsSegmentTimes ? 0 : playlist.segments[first].start
        guard let spans = Self.spans(of: playlist.segments[first...], from: origin) else { return nil }
        self.spans = spans
        dateRanges = playlist.dateRanges
    }

    /// The dates of a live timeline's window as the latest reload lists it (segments that
    /// joined after the open included), on the item timeline; nil when none is dated.
    init?(window timeline: HLSLiveTimeline) {
        let first = min(timeline.windowFirst, timeline.segments.count)
        guard let spans = Self.spans(of: timeline.segments[first...], from: 0) else { return nil }
        self.spans = spans
        dateRanges = []
    }

    /// The dated ones of `segments`, placed `origin` seconds earlier; nil when none is dated.
    private static func spans(of segments: ArraySlice<HLSSegment>, from origin: Double) -> [Span]? {
        let spans = segments.compactMap { segment in
            segment.programDate.map { Span(start: segment.start - origin, seconds: segment.duration, date: $0) }
        }
        return spans.isEmpty ? nil : spans
    }

    /// The date shown at `seconds` on the timeline: within the dated segment that holds it, or
    /// carried on from the nearest one before (or, before any, after) it.
    func date(at seconds: Double) -> Date? {
        guard seconds.isFinite else { return nil }
        let span = spans.last { $0.start <= seconds + 1e-9 } ?? spans[0]
        return span.date.addingTimeInterval(seconds - span.start)
    }

    /// Where on the timeline `date` is shown: inside a dated segment (its first such one),
    /// or nil when no segment covers it.
    func time(for date: Date) -> Double? {
        for span in spans {
            let offset = date.timeIntervalSince(span.date)
            if offset >= -1e-6, offset < span.seconds { return span.start + max(0, offset) }
        }
        return nil
    }

    /// An `EXT-X-PROGRAM-DATE-TIME` value (ISO 8601 with a time zone, `Z`, `+08:00` or
    /// `+0800`, fractional seconds optional), or nil when it is not one.
    static func parseDate(_ text: String) -> Date? {
        let value = text.trimmingCharacters(in: .whitespaces)
        return dateFormatters.lazy.compactMap { $0.date(from: value) }.first
    }

    /// The forms a tag is read in, made once (a long VOD playlist dates every segment).
    /// Formatters only parse after this, which Foundation allows from any thread.
    private nonisolated(unsafe) static let dateFormatters: [ISO8601DateFormatter] = {
        let base: ISO8601DateFormatter.Options = [
            .withFullDate, .withTime, .withDashSeparatorInDate, .withColonSeparatorInTime, .withTimeZone,
        ]
        return [
            base.union([.withFractionalSeconds, .withColonSeparatorInTimeZone]), base.union(.withColonSeparatorInTimeZone),
            base.union(.withFractionalSeconds), base,
        ].map { options in
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            return formatter
        }
    }()
}
