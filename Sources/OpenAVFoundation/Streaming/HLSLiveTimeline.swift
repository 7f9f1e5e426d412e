// Playhead: the segments of an HLS media playlist on one timeline, kept across the reloads of a
// live playlist: segments already seen keep their place (by media sequence number), new ones
// follow the last, and the window is what the latest reload lists. A VOD playlist is a
// timeline that never reloads.
//
// Concurrency: a value; the HLS loader keeps it under its lock.
import Foundation

/// A media playlist's segments across reloads; see the file comment.
struct HLSLiveTimeline: Equatable, Sendable {
    /// How many target durations behind the end of a live window playback starts (RFC 8216
    /// §6.3.3: no closer than three).
    static let edgeTargets = 3.0

    /// Every segment seen, in order, each at its place on the timeline (0 is the start of the
    /// first playlist loaded).
    private(set) var segments: [HLSSegment]
    /// The index in `segments` of the latest playlist's first segment.
    private(set) var windowFirst = 0
    /// `EXT-X-TARGETDURATION` of the latest playlist, seconds.
    private(set) var targetDuration: Double
    /// True once a playlist carried `EXT-X-ENDLIST`.
    private(set) var isEnded: Bool
    /// The latest playlist's hold-back, seconds, when it gave one.
    private(set) var holdBack: Double?

    /// The timeline of `playlist` as first loaded.
    init(_ playlist: HLSMediaPlaylist) {
        segments = playlist.segments
        targetDuration = playlist.targetDuration
        isEnded = playlist.isEnded
        holdBack = playlist.holdBack
    }

    /// Takes in a reload of the playlist: segments after the last one known join the timeline
    /// (segments the reloads missed are counted at the target duration each), the window moves to
    /// the reload's. Returns true when it brought a new segment or the end.
    @discardableResult
    mutating func merge(_ playlist: HLSMediaPlaylist) -> Bool {
        targetDuration = playlist.targetDuration > 0 ? playlist.targetDuration : targetDuration
        holdBack = playlist.holdBack ?? holdBack
        var changed = false
        if playlist.isEnded, !isEnded {
            isEnded = true
            changed = true
        }
        guard let last = segments.last else {
            segments = playlist.segments
            return changed || !segments.isEmpty
        }
        var end = last.start + last.duration
        var previous = last.sequence
        for segment in playlist.segments where segment.sequence > last.sequence {
            end += Double(max(0, segment.sequence - previous - 1)) * targetDuration
            var placed = HLSSegment(
                url: segment.url, sequence: segment.sequence, start: end, duration: segment.duration,
                byteRange: segment.byteRange, discontinuity: segment.discontinuity,
                discontinuitySequence: segment.discontinuitySequence, map: segment.map, key: segment.key)
            placed.programDate = segment.programDate
            placed.mediaStart = segment.mediaStart
            placed.sectionEnd = segment.sectionEnd
            segments.append(placed)
            end += segment.duration
            previous = segment.sequence
            changed = true
        }
        if let first = playlist.segments.first?.sequence,
            let index = segments.lastIndex(where: { $0.sequence <= first })
        {
            windowFirst = max(windowFirst, index)
        }
        return changed
    }

    /// The span the latest playlist lists, on the timeline.
    var window: ClosedRange<Double> {
        guard let last = segments.last else { return 0...0 }
        let start = segments[min(windowFirst, segments.count - 1)].start
        return start...(last.start + last.duration)
    }

    /// How far behind the window's end live playback starts, seconds: the hold-back the
    /// server asks for, else three target durations.
    var edgeOffset: Double { holdBack ?? Self.edgeTargets * targetDuration }

    /// The segment live playback starts at: the one holding `edgeOffset` before the window's
    /// end, never before the window.
    var liveEdgeIndex: Int {
        let target = window.upperBound - edgeOffset
        let index = segments.lastIndex { $0.start <= target + 1e-6 } ?? windowFirst
        return min(max(index, windowFirst), max(segments.count - 1, 0))
    }

    /// Seconds until the next reload: the target duration after a reload that changed the
    /// playlist, half of it after one that did not (RFC 8216 §6.3.4).
    func reloadInterval(changed: Bool) -> Double {
        let target = max(targetDuration, 0.5)
        return changed ? target : target / 2
    }

    /// The index of the segment holding `seconds` (the last one for times past the end).
    func segmentIndex(at seconds: Double) -> Int? {
        guard !segments.isEmpty else { return nil }
        return segments.lastIndex { $0.start <= seconds + 1e-6 } ?? 0
    }

    /// The index of the segment with media sequence number `sequence`, when it is known.
    func index(ofSequence sequence: Int) -> Int? {
        segments.lastIndex { $0.sequence == sequence }
    }
}
