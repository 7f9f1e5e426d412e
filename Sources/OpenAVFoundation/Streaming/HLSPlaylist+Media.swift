// Playhead: an HLS media playlist (RFC 8216 §4.3.2–4.3.3) parsed from its lines: segments
// with their durations, byte ranges, keys, initialisation sections, dates and discontinuities
// on one timeline, and the playlist's own tags (target duration, media sequence, start point,
// date ranges, the server's hold-back).
//
// Concurrency: a pure parser; used by the HLS loader's threads.
import Foundation

extension HLSPlaylist {
    /// The media playlist in `lines` (its variables already replaced), URIs resolved against
    /// `base`.
    static func parseMedia(_ lines: [String], base: URL) throws(ParseError) -> HLSMediaPlaylist {
        var target = 0.0
        var sequence = 0
        var segments: [HLSSegment] = []
        var duration: Double?
        var range: Range<Int>?
        var rangeEnd = 0
        var discontinuity = false
        var ended = false
        var encrypted = false
        var map: URL?
        var segmentMap: HLSMap?
        var discontinuities = 0
        var start = 0.0
        var key: HLSKey?
        var unsupportedKey = false
        var date: Date?
        var startPoint: HLSStartPoint?
        var gap = false
        var dateRanges: [HLSDateRange] = []
        var holdBack: Double?
        var iFramesOnly = false
        var drmSystem: String?
        for line in lines where !line.isEmpty {
            if let value = line.value(of: "#EXT-X-START:") {
                startPoint = HLSStartPoint(attributes: attributes(Substring(value)))
            } else if let value = line.value(of: "#EXT-X-SERVER-CONTROL:") {
                holdBack = attributes(Substring(value))["HOLD-BACK"].flatMap(Double.init).flatMap { $0 >= 0 ? $0 : nil }
            } else if let value = line.value(of: "#EXT-X-TARGETDURATION:") {
                target = Double(value) ?? 0
            } else if let value = line.value(of: "#EXT-X-MEDIA-SEQUENCE:") {
                sequence = Int(value) ?? 0
            } else if let value = line.value(of: "#EXT-X-DISCONTINUITY-SEQUENCE:") {
                discontinuities = max(0, Int(value) ?? 0)
            } else if let value = line.value(of: "#EXTINF:") {
                duration = Double(value.prefix { $0 != "," }.trimmingCharacters(in: .whitespaces))
            } else if let value = line.value(of: "#EXT-X-BYTERANGE:") {
                let parts = value.split(separator: "@").compactMap { Int($0) }
                if let length = parts.first {
                    range = HLSPlaylist.byteRange(length: length, offset: parts.count > 1 ? parts[1] : rangeEnd)
                }
            } else if let value = line.value(of: "#EXT-X-PROGRAM-DATE-TIME:") {
                date = ProgramDateMap.parseDate(value) ?? date
            } else if line == "#EXT-X-DISCONTINUITY" {
                if !discontinuity, !segments.isEmpty { discontinuities += 1 }
                discontinuity = true
            } else if line == "#EXT-X-ENDLIST" {
                ended = true
            } else if line == "#EXT-X-GAP" {
                gap = true
            } else if line == "#EXT-X-I-FRAMES-ONLY" {
                iFramesOnly = true
            } else if let value = line.value(of: "#EXT-X-DATERANGE:") {
                if let range = HLSDateRange(tag: Substring(value)) { dateRanges.append(range) }
            } else if let value = line.value(of: "#EXT-X-KEY:") {
                let list = attributes(Substring(value))
                drmSystem = drmSystem ?? HLSKey.drmSystem(of: list)
                switch list["METHOD"] {
                case "NONE":
                    key = nil
                case "AES-128":
                    encrypted = true
                    guard let uri = list["URI"] else {
                        unsupportedKey = true
                        break
                    }
                    let iv = list["IV"].map(HLSKey.ivBytes)
                    if iv == .some(nil) { unsupportedKey = true }
                    key = HLSKey(url: try resolve(uri, base), iv: iv ?? nil)
                default:
                    encrypted = true
                    unsupportedKey = true
                }
            } else if let value = line.value(of: "#EXT-X-MAP:") {
                let list = attributes(Substring(value))
                guard let uri = list["URI"] else { continue }
                let url = try resolve(uri, base)
                // BYTERANGE="length[@offset]"; the offset defaults to 0.
                let parts = list["BYTERANGE"]?.split(separator: "@").compactMap { Int($0) } ?? []
                let range = parts.first.flatMap { length in
                    length > 0 ? HLSPlaylist.byteRange(length: length, offset: parts.count > 1 ? parts[1] : 0) : nil
                }
                if map == nil { map = url }
                segmentMap = HLSMap(url: url, byteRange: range, key: key)
            } else if !line.hasPrefix("#") {
                let length = max(0, duration ?? target)
                segments.append(
                    HLSSegment(
                        url: try resolve(line, base), sequence: sequence + segments.count, start: start,
                        duration: length, byteRange: range, discontinuity: discontinuity,
                        discontinuitySequence: discontinuities, map: segmentMap, key: key, programDate: date,
                        isGap: gap))
                start += length
                date = date?.addingTimeInterval(length)
                rangeEnd = range?.upperBound ?? 0
                duration = nil
                range = nil
                discontinuity = false
                gap = false
            }
        }
        var playlist = HLSMediaPlaylist(
            targetDuration: target, segments: segments, isEnded: ended, isEncrypted: encrypted,
            hasUnsupportedKey: unsupportedKey, initialisation: map, mediaSequence: sequence, startPoint: startPoint,
            dateRanges: dateRanges)
        playlist.holdBack = holdBack
        playlist.isIFramesOnly = iFramesOnly
        playlist.drmSystem = drmSystem
        return playlist
    }
}
