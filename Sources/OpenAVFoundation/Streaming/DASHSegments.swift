// Playhead: a DASH Representation's segments, from its `SegmentTemplate` (`$Number$`,
// `$Time$`, `$RepresentationID$`, `$Bandwidth$`, with a `SegmentTimeline` or a fixed
// `duration`) or its `SegmentList`, as the HLS loader's segments: each with its URL, byte
// range, place on the period's timeline and initialisation section.
//
// Concurrency: pure functions; used on the thread that opens an input.
import Foundation

enum DASHSegments {
    /// More segments than this in one Representation are taken for a broken manifest.
    static let mostSegments = 200_000

    /// The segments a `SegmentTemplate` describes over `length` seconds; nil when it names no
    /// media, its timing is missing or a URL does not resolve. For a dynamic (live) MPD,
    /// `available` is the stretch of the Period (seconds from its start) whose segments can be
    /// fetched now: those that end in it are listed (a fixed-duration template's from the
    /// clock alone), and `length` only bounds them.
    static func fromTemplate(
        _ template: XMLTree, representation id: String, bandwidth: Int, base: URL, length: Double,
        available: ClosedRange<Double>? = nil
    ) -> [HLSSegment]? {
        let attributes = template.attributes
        guard let media = attributes["media"] else { return nil }
        let timescale = max(attributes["timescale"].flatMap(Int64.init) ?? 1, 1)
        let offset = attributes["presentationTimeOffset"].flatMap(Int64.init) ?? 0
        let firstNumber = attributes["startNumber"].flatMap(Int.init) ?? 1
        var map: HLSMap?
        if let initialisation = attributes["initialization"] {
            guard let path = expand(initialisation, id: id, bandwidth: bandwidth, number: nil, time: nil),
                let url = URL(string: path, relativeTo: base)?.absoluteURL
            else { return nil }
            map = HLSMap(url: url, byteRange: nil)
        }
        /// `seconds` from the Period's start in the template's timescale (bounded).
        func ticks(_ seconds: Double) -> Int64 {
            offset + Int64((min(max(seconds, 0), 1e9) * Double(timescale)).rounded())
        }
        // (number, time, duration) of each segment, in the template's timescale.
        var timing: [(Int, Int64, Int64)] = []
        let end = ticks(min(length, available?.upperBound ?? length))
        if let timeline = template.child("SegmentTimeline") {
            let entries = timeline.children("S")
            var time = offset
            for (index, entry) in entries.enumerated() {
                guard let duration = entry.attributes["d"].flatMap(Int64.init), duration > 0 else { return nil }
                if let start = entry.attributes["t"].flatMap(Int64.init) { time = start }
                var repeats = entry.attributes["r"].flatMap(Int64.init) ?? 0
                if repeats < 0 {
                    // Up to the next entry's start, or the period's end.
                    let until = index + 1 < entries.count ? entries[index + 1].attributes["t"].flatMap(Int64.init) ?? end : end
                    repeats = max(0, (until - time + duration - 1) / duration - 1)
                }
                guard timing.count + Int(min(repeats, Int64(mostSegments))) < mostSegments else { return nil }
                for _ in 0...repeats {
                    timing.append((firstNumber + timing.count, time, duration))
                    time += duration
                }
            }
            if let available {
                // Listed segments that are not whole yet, or fell out of the time shift buffer.
                let (earliest, latest) = (ticks(available.lowerBound), end)
                timing.removeAll { $0.1 + $0.2 > latest || $0.1 + $0.2 < earliest }
            }
        } else {
            guard let duration = attributes["duration"].flatMap(Int64.init), duration > 0 else { return nil }
            if let available {
                // Live: the segments whole by now (each can be fetched once it ends) and not
                // yet out of the time shift buffer, numbered from the Period's start.
                let last = (end - offset) / duration - 1
                let first = max(
                    0, (ticks(available.lowerBound) - offset + duration - 1) / duration - 1, last - Int64(mostSegments) + 1)
                guard last >= first else { return [] }
                timing = (first...last).map { (firstNumber + Int($0), offset + $0 * duration, duration) }
            } else {
                let count = Int(((end - offset) + duration - 1) / duration)
                guard count > 0, count < mostSegments else { return nil }
                timing = (0..<count).map { (firstNumber + $0, offset + Int64($0) * duration, duration) }
            }
        }
        var segments: [HLSSegment] = []
        for (number, time, duration) in timing {
            guard let path = expand(media, id: id, bandwidth: bandwidth, number: number, time: time),
                let url = URL(string: path, relativeTo: base)?.absoluteURL
            else { return nil }
            let start = Double(time - offset) / Double(timescale)
            // The last segment of a fixed-duration template ends with the period.
            let seconds = min(Double(duration) / Double(timescale), max(length - start, 0))
            guard seconds > 0 else { break }
            var segment = HLSSegment(
                url: url, sequence: number, start: start, duration: seconds, byteRange: nil, discontinuity: false, map: map)
            segment.mediaStart = Double(time) / Double(timescale)
            segments.append(segment)
        }
        return segments
    }

    /// The segments a `SegmentList` lists (`SegmentURL` with `media` and `mediaRange`, every
    /// one `duration` long but the last, which ends with the period); nil when one does not
    /// resolve or the list has no duration.
    static func fromList(_ list: XMLTree, base: URL, length: Double) -> [HLSSegment]? {
        let timescale = max(list.attributes["timescale"].flatMap(Int64.init) ?? 1, 1)
        guard let duration = list.attributes["duration"].flatMap(Int64.init), duration > 0 else { return nil }
        let firstNumber = list.attributes["startNumber"].flatMap(Int.init) ?? 1
        let step = Double(duration) / Double(timescale)
        var map: HLSMap?
        if let initialisation = list.child("Initialization") {
            guard let url = resolve(initialisation.attributes["sourceURL"], base) else { return nil }
            map = HLSMap(url: url, byteRange: initialisation.attributes["range"].flatMap(byteRange))
        }
        var segments: [HLSSegment] = []
        for (index, entry) in list.children("SegmentURL").enumerated() {
            guard let url = resolve(entry.attributes["media"], base) else { return nil }
            let start = Double(index) * step
            let seconds = min(step, max(length - start, 0))
            guard seconds > 0 else { break }
            segments.append(
                HLSSegment(
                    url: url, sequence: firstNumber + index, start: start, duration: seconds,
                    byteRange: entry.attributes["mediaRange"].flatMap(byteRange), discontinuity: false, map: map))
        }
        return segments
    }

    /// `path` resolved against `base`; `base` itself when there is no path.
    private static func resolve(_ path: String?, _ base: URL) -> URL? {
        guard let path, !path.isEmpty else { return base }
        return URL(string: path, relativeTo: base)?.absoluteURL
    }

    /// "first-last" (both inclusive) as a range; nil when malformed.
    static func byteRange(_ text: String) -> Range<Int>? {
        let parts = text.split(separator: "-").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let first = parts[0], let last = parts[1], first >= 0, last >= first else { return nil }
        return HLSPlaylist.byteRange(length: last - first + 1, offset: first)
    }

    /// `template` with its identifiers replaced: `$RepresentationID$`, `$Bandwidth$`,
    /// `$Number$` and `$Time$` (each number optionally with a `%0Nd` width), `$$` for a
    /// dollar. Nil when it names an identifier it has no value for.
    static func expand(_ template: String, id: String, bandwidth: Int, number: Int?, time: Int64?) -> String? {
        let pieces = template.components(separatedBy: "$")
        // Identifiers sit at the odd places between dollars; an even count of pieces means
        // one dollar is unmatched.
        guard pieces.count % 2 == 1 else { return nil }
        var result = ""
        for (index, piece) in pieces.enumerated() {
            if index % 2 == 0 {
                result += piece
                continue
            }
            if piece.isEmpty {
                result += "$"
                continue
            }
            let (name, format) = piece.firstIndex(of: "%").map { (String(piece[..<$0]), String(piece[$0...])) }
                ?? (piece, "")
            let value: Int64?
            switch name {
            case "RepresentationID":
                guard format.isEmpty else { return nil }
                result += id
                continue
            case "Bandwidth": value = Int64(bandwidth)
            case "Number": value = number.map(Int64.init)
            case "Time": value = time
            default: return nil
            }
            guard let value else { return nil }
            var digits = String(value)
            if !format.isEmpty {
                // "%0Nd" (or "%Nd"): at least N digits, zero-padded.
                let spec = format.dropFirst().dropLast()
                guard format.hasPrefix("%"), format.hasSuffix("d"), let width = spec.isEmpty ? 0 : Int(spec)
                else { return nil }
                if digits.count < width { digits = String(repeating: "0", count: width - digits.count) + digits }
            }
            result += digits
        }
        return result
    }
}
