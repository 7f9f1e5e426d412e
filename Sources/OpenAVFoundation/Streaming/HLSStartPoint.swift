// Playhead: `EXT-X-START` (RFC 8216 §4.3.5.2), where a playlist asks playback to begin.
//
// Concurrency: a value, parsed with its playlist; `startTarget` reads the loader's timeline
// under its lock (the engine's open work asks it once).
import Foundation

/// `EXT-X-START`: the point where a playlist prefers playback to start.
struct HLSStartPoint: Equatable, Sendable {
    /// `TIME-OFFSET`, seconds: from the playlist's start when positive, from its end (a live
    /// window's end) when negative.
    let offset: Double
    /// `PRECISE=YES`: playback starts at the point itself; otherwise at the start of the
    /// segment holding it (its keyframe).
    let precise: Bool

    /// The tag's attributes as a start point; nil without a numeric `TIME-OFFSET`.
    init?(attributes: [String: String]) {
        guard let text = attributes["TIME-OFFSET"], let offset = Double(text), offset.isFinite else { return nil }
        self.offset = offset
        precise = attributes["PRECISE"] == "YES"
    }

    /// The point as a time in `range` (the item's length, or a live window): an offset past
    /// either end means that end.
    func time(in range: ClosedRange<Double>) -> Double {
        let point = offset >= 0 ? range.lowerBound + offset : range.upperBound + offset
        return min(max(point, range.lowerBound), range.upperBound)
    }
}

extension HLSStreamLoader {
    /// Where an item of this loader opens by its playlists' `EXT-X-START`, on the item
    /// timeline: the point itself (`precise`), or the start of the segment holding it. In a
    /// live stream's window, else in `0...duration`; nil without a start point (or a length).
    func startTarget(duration: Double?) -> (seconds: Double, precise: Bool)? {
        guard let startPoint else { return nil }
        condition.lock()
        defer { condition.unlock() }
        let timeline = state.timeline
        let range: ClosedRange<Double>
        if isLive {
            range = timeline.window
        } else {
            guard let duration, duration.isFinite, duration > 0 else { return nil }
            range = 0...duration
        }
        let point = startPoint.time(in: range)
        if startPoint.precise { return (point, true) }
        let start = timeline.segmentIndex(at: point).map { timeline.segments[$0].start } ?? point
        return (min(max(start, range.lowerBound), range.upperBound), false)
    }
}
