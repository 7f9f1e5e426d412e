// Playhead: a static MPD of several Periods (a programme with a bumper or an advert before
// or between its parts) as one presentation: each variant plays, Period after Period, the
// Representation of that Period that matches it by rank in the video ladder (audio sets
// matched by language and name, their Representations by rank), each Period's segments placed
// at the Period's start on one timeline and opening a discontinuity sequence of their own,
// so the demuxer reads each Period with a fresh container anchored at its start (as after
// an HLS `EXT-X-DISCONTINUITY`), its container times mapped by the segments' own presentation
// times; a Period's segments stop at its end (their media past it is not shown: the
// segments' `sectionEnd`). Text sets of segments join as audio sets do (by language and
// name); one some Period lacks, or holds as a single file, is left out. libavformat's DASH
// demuxer plays one Period only (the one stating the longest duration).
//
// Concurrency: pure functions; used on the thread that opens an input.
import Foundation

extension DASHManifest {
    /// The Periods of the static MPD in `data`, in order, each read as a manifest of its own
    /// (`periodStart` set, segment times from its own start); nil when the MPD is dynamic, a
    /// Period is remote (`xlink:href`), their timing is missing or contradictory, or one holds
    /// something the loader does not model.
    static func periods(_ data: Data, base: URL) -> [DASHManifest]? {
        XMLTree.parse(data).flatMap { periods($0, base: base) }
    }

    /// `periods(_:base:)` of an MPD already read into a tree.
    static func periods(_ mpd: XMLTree, base: URL) -> [DASHManifest]? {
        guard mpd.name == "MPD", (mpd.attributes["type"] ?? "static") == "static" else { return nil }
        guard let starts = periodStarts(of: mpd) else { return nil }
        let nodes = mpd.children("Period")
        let total = mpd.attributes["mediaPresentationDuration"].flatMap(isoDuration)
        let mpdBase = baseURL(of: mpd, under: base)
        var periods: [DASHManifest] = []
        for (index, node) in nodes.enumerated() {
            // Lengths: stated, else up to the next Period's start or the presentation's end.
            let end: Double? = index + 1 < nodes.count ? starts[index + 1] : total
            guard let length = node.attributes["duration"].flatMap(isoDuration) ?? end.map({ $0 - starts[index] }),
                length > 0, index + 1 == nodes.count || starts[index] + length <= starts[index + 1] + 0.001,
                var read = Self.period(node, base: baseURL(of: node, under: mpdBase), length: length)
            else { return nil }
            read.periodStart = starts[index]
            periods.append(read)
        }
        return periods
    }

    /// More Periods than this are taken for a broken manifest.
    static let mostPeriods = 1_000

    /// `periods` as one presentation on one timeline (see the file comment); the one Period
    /// itself, as it is, when there is one and no `timelines` are given. Nil when a Period
    /// still has a `SegmentBase` Representation whose index is unread, when the Periods are
    /// not all video or all sound, or when some have audio sets beside the variants and others
    /// none. `main`: the Period whose Representations name the variants (by default the
    /// longest); `timelines`: each Period's discontinuity sequence (by default its index);
    /// `ended`: whether the playlists are complete.
    static func joining(
        _ periods: [DASHManifest], main chosen: Int? = nil, timelines: [Int]? = nil, ended: Bool = true,
        fillsMissingText: Bool = false
    ) -> DASHManifest? {
        guard let first = periods.first else { return nil }
        guard periods.count > 1 || timelines != nil else { return first }
        let unread = periods.contains { period in
            (period.variants + period.audio.flatMap(\.representations)).contains { $0.index != nil }
        }
        guard !unread, Set(periods.map(\.isSoundOnly)).count == 1, Set(periods.map(\.audio.isEmpty)).count == 1
        else { return nil }
        // The longest Period names the variants and the audio sets (its Representations' ids
        // and attributes describe them); the others fill in their own stretches.
        let main = chosen.map { periods[$0] } ?? periods.max { $0.length < $1.length } ?? first
        let timelines = timelines ?? Array(periods.indices)
        var joined = main
        joined.periodStart = 0
        joined.variants = main.variants.indices.map { rank in
            var variant = main.variants[rank]
            variant.playlist = joinedPlaylist(
                timelines: timelines, ended: ended,
                periods.map { period in
                    let count = period.variants.count
                    return (start: period.periodStart, playlist: period.variants[matching(rank, of: main.variants.count, in: count)].playlist)
                })
            return variant
        }
        var audio: [AudioSet] = []
        for set in main.audio {
            var matched: [AudioSet] = []
            for period in periods {
                guard let match = period.audioSet(matching: set) else { return nil }
                matched.append(match)
            }
            audio.append(
                AudioSet(
                    name: set.name, language: set.language, isDefault: set.isDefault,
                    representations: set.representations.indices.map { rank in
                        var version = set.representations[rank]
                        version.playlist = joinedPlaylist(
                            timelines: timelines, ended: ended,
                            zip(periods, matched).map { period, match in
                                let count = match.representations.count
                                let index = matching(rank, of: set.representations.count, in: count)
                                return (start: period.periodStart, playlist: match.representations[index].playlist)
                            })
                        return version
                    }))
        }
        joined.audio = audio
        // Text sets of segments (in a static manifest a whole file counts as one segment over
        // its Period): those of the main Period, joined across the others; with
        // `fillsMissingText` (a live manifest, also once it ended), the sets of every Period,
        // each with no segments where a Period lacks it (an advert).
        // (A live Period's whole file may still grow: those are left out.)
        let textPeriods = fillsMissingText ? periods : periods.map { $0.withWholeTextFilesAsSegments() }
        var texts = (fillsMissingText ? main : main.withWholeTextFilesAsSegments()).subtitles.filter { $0.playlist != nil }
        if fillsMissingText {
            for track in textPeriods.flatMap(\.subtitles) where track.playlist != nil {
                if !texts.contains(where: { $0.codecName == track.codecName && $0.language == track.language && $0.name == track.name }) {
                    texts.append(track)
                }
            }
        }
        let none = HLSMediaPlaylist(
            targetDuration: 1, segments: [], isEnded: ended, isEncrypted: false, initialisation: nil, mediaSequence: 0)
        joined.subtitles = texts.compactMap { track -> TextTrack? in
            var parts: [(start: Double, playlist: HLSMediaPlaylist)] = []
            for period in textPeriods {
                // (A whole file is read as what it turns out to be: WebVTT in one Period and TTML
                // in another still join.)
                let segmented = period.subtitles.filter {
                    $0.playlist != nil && ($0.codecName == track.codecName || ($0.isWholeFile && track.isWholeFile))
                }
                let match =
                    segmented.first(where: { $0.language == track.language && $0.name == track.name })
                    ?? segmented.first(where: { $0.language == track.language })
                guard let playlist = match?.playlist ?? (fillsMissingText ? none : nil) else { return nil }
                parts.append((period.periodStart, playlist))
            }
            var joinedTrack = track
            joinedTrack.playlist = joinedPlaylist(timelines: timelines, ended: ended, parts)
            return joinedTrack
        }
        return joined
    }

    /// Seconds its variants last.
    var length: Double { variants.first?.playlist.duration ?? 0 }

    /// This Period with each text set of one whole file (WebVTT or TTML) as a playlist of that
    /// one file over the Period, its cues timed from the Period's start (`mediaStart` 0), so
    /// it joins the other Periods' sets as segmented ones do.
    func withWholeTextFilesAsSegments() -> DASHManifest {
        var copy = self
        copy.subtitles = subtitles.map { track in
            guard track.playlist == nil, track.index == nil else { return track }
            var segment = HLSSegment(
                url: track.url, sequence: 1, start: 0, duration: max(length, 1), byteRange: nil, discontinuity: false)
            segment.mediaStart = 0
            var segmented = track
            segmented.playlist = Self.playlist([segment])
            return segmented
        }
        return copy
    }

    /// The audio set standing in for `set` (of another Period): the one with its language and
    /// name, else its language, else the default one.
    func audioSet(matching set: AudioSet) -> AudioSet? {
        audio.first { $0.language == set.language && $0.name == set.name }
            ?? audio.first { $0.language == set.language } ?? audio.first(where: \.isDefault)
    }

    /// Of `count` Representations, the one matching the one of rank `rank` in a ladder of
    /// `ladder` (lowest with lowest, highest with highest, the ones between spread evenly).
    static func matching(_ rank: Int, of ladder: Int, in count: Int) -> Int {
        guard ladder > 1 else { return count - 1 }
        return Int((Double(rank * (count - 1)) / Double(ladder - 1)).rounded())
    }

    /// The segments of `parts` (one Representation's playlist a Period, with the Period's
    /// start), one after the other: numbered on from 1, each Period's placed at its start and
    /// opening a discontinuity sequence of its own (`timelines`, one a Period).
    private static func joinedPlaylist(
        timelines: [Int], ended: Bool, _ parts: [(start: Double, playlist: HLSMediaPlaylist)]
    ) -> HLSMediaPlaylist {
        var segments: [HLSSegment] = []
        for (position, part) in parts.enumerated() {
            let timeline = timelines[position]
            // Media a Period's segments hold past its end (where the next begins) is not shown,
            // and a segment that begins there is not fetched.
            let end = position + 1 < parts.count ? parts[position + 1].start : nil
            for (index, segment) in part.playlist.segments.enumerated() {
                let start = part.start + segment.start
                if let end, start >= end - 1e-6 { break }
                var placed = HLSSegment(
                    url: segment.url, sequence: segments.count + 1, start: start,
                    duration: end.map { min(segment.duration, $0 - start) } ?? segment.duration,
                    byteRange: segment.byteRange, discontinuity: position > 0 && index == 0,
                    discontinuitySequence: timeline, map: segment.map)
                placed.mediaStart = segment.mediaStart
                placed.programDate = segment.programDate
                placed.sectionEnd = end
                segments.append(placed)
            }
        }
        let joined = playlist(segments)
        return ended
            ? joined
            : HLSMediaPlaylist(
                targetDuration: joined.targetDuration, segments: segments, isEnded: false, isEncrypted: false,
                initialisation: joined.initialisation, mediaSequence: joined.mediaSequence)
    }
}

extension DASHManifest.TextTrack {
    /// True for a set of one whole file over its Period, made a playlist of that one file by
    /// `withWholeTextFilesAsSegments` (no initialisation section, timed from the Period).
    var isWholeFile: Bool {
        guard let segments = playlist?.segments, segments.count == 1, index == nil else { return false }
        return segments[0].map == nil && segments[0].mediaStart == 0 && segments[0].byteRange == nil
    }
}
