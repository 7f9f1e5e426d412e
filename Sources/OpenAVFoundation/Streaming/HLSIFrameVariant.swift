// Playhead: an HLS stream's I-frame playlists (`EXT-X-I-FRAME-STREAM-INF`, RFC 8216 §4.3.4.3):
// media playlists marked `EXT-X-I-FRAMES-ONLY` whose every segment is one keyframe, a byte
// range of a variant's media segment lasting until the next keyframe. A still picture of the
// stream at a time needs one such range (tens of kilobytes), not a whole segment.
//
// Concurrency: values; a pure choice.
import Foundation

/// One `EXT-X-I-FRAME-STREAM-INF` entry of a multivariant playlist.
struct HLSIFrameVariant: Equatable, Sendable {
    /// The I-frame media playlist.
    let url: URL
    /// `BANDWIDTH` (bits per second of the keyframes played at 1x), and `RESOLUTION` when given.
    let bandwidth: Int
    let width: Int?
    let height: Int?
    /// `CODECS`, when given.
    let codecs: String?
    /// `PATHWAY-ID` ("." when not given).
    let pathway: String

    /// The entry the tag's `attributes` describe (URIs resolved against `base`); nil without a
    /// `URI`.
    init?(attributes: [String: String], base: URL) throws(HLSPlaylist.ParseError) {
        guard let uri = attributes["URI"] else { return nil }
        url = try HLSPlaylist.resolve(uri, base)
        bandwidth = attributes["BANDWIDTH"].flatMap { Int($0) } ?? 0
        let size = attributes["RESOLUTION"]?.split(separator: "x").compactMap { Int($0) }
        width = size?.count == 2 ? size?[0] : nil
        height = size?.count == 2 ? size?[1] : nil
        codecs = attributes["CODECS"]
        pathway = attributes["PATHWAY-ID"] ?? HLSSteeringTag.defaultPathway
    }

    /// The playlist to take pictures from among `candidates` for images at most `maximum`
    /// pixels wide and high (nil or a zero side: no bound): the smallest whose pictures cover
    /// the bound (the least bytes that still fill it), else the largest; by bit rate where
    /// sizes are not given. Nil when there is none.
    static func best(of candidates: [HLSIFrameVariant], forAtMost maximum: (width: Int, height: Int)?) -> HLSIFrameVariant? {
        let ordered = candidates.sorted { lhs, rhs in
            let (left, right) = (lhs.pixels, rhs.pixels)
            return left == right ? lhs.bandwidth < rhs.bandwidth : left < right
        }
        guard let maximum, maximum.width > 0 || maximum.height > 0 else { return ordered.last }
        let covering = ordered.first { variant in
            guard let width = variant.width, let height = variant.height else { return false }
            return width >= maximum.width && height >= maximum.height
        }
        return covering ?? ordered.last
    }

    /// `best(of:forAtMost:)` among those of `candidates` on `pathway` (all of them when none
    /// is on it).
    static func best(
        of candidates: [HLSIFrameVariant], on pathway: String?, forAtMost maximum: (width: Int, height: Int)?
    ) -> HLSIFrameVariant? {
        let onPathway = candidates.filter { $0.pathway == pathway }
        return best(of: onPathway.isEmpty ? candidates : onPathway, forAtMost: maximum)
    }

    /// Width times height (0 when not given).
    private var pixels: Int { (width ?? 0) * (height ?? 0) }
}
