// Playhead: choosing one variant of a multivariant stream (an HLS master playlist) from the
// bandwidth measured while it opened and the item's peak bit rate.
//
// Concurrency: pure functions over values; called by the open work.
import FFmpegBridge
import Foundation

/// The variant an item plays, chosen once when it opens.
///
/// libavformat's HLS demuxer exposes every variant's streams and tags each with its
/// `BANDWIDTH` (`variant_bitrate`). The choice is the highest variant whose bandwidth fits in
/// `headroom` of the measured throughput (and under the peak bit rate the item allows), else
/// the lowest. The other variants' streams are then discarded, so only the chosen one's
/// segments are fetched.
struct VariantChoice: Equatable {
    /// The share of the measured throughput a variant may need.
    static let headroom = 0.8

    /// The chosen variant's `BANDWIDTH` in bits per second.
    let bitRate: Int
    /// Its video and audio streams (nil when the variant has none of that kind).
    let videoStream: Int?
    let audioStream: Int?

    /// One stream that belongs to a variant.
    struct Member: Equatable {
        let index: Int
        let kind: StreamKind
        /// The variant's `BANDWIDTH`.
        let bitRate: Int
    }

    /// The variant to play among `streams`, or nil when there are fewer than two variants.
    ///
    /// - Parameters:
    ///   - measuredBitRate: throughput seen while opening, bits per second (nil: unknown,
    ///     the highest variant within `peakBitRate` is taken).
    ///   - peakBitRate: the item's `preferredPeakBitRate` (0: no limit).
    static func choose(
        among streams: [StreamDescription], measuredBitRate: Double?, peakBitRate: Double
    ) -> VariantChoice? {
        let members = streams.compactMap { stream in
            variantBitRate(stream).map { Member(index: stream.index, kind: stream.kind, bitRate: $0) }
        }
        return choose(among: members, measuredBitRate: measuredBitRate, peakBitRate: peakBitRate)
    }

    /// The variant to play among the variant streams `members` (see the other overload).
    static func choose(among members: [Member], measuredBitRate: Double?, peakBitRate: Double) -> VariantChoice? {
        let rates = Set(members.map(\.bitRate)).sorted()
        guard rates.count >= 2 else { return nil }
        var budget = measuredBitRate.map { $0 * headroom } ?? .infinity
        if peakBitRate > 0 { budget = min(budget, peakBitRate) }
        let chosen = rates.last { Double($0) <= budget } ?? rates[0]
        let chosenMembers = members.filter { $0.bitRate == chosen }
        return VariantChoice(
            bitRate: chosen,
            videoStream: chosenMembers.first { $0.kind == .video }?.index,
            audioStream: chosenMembers.first { $0.kind == .audio }?.index)
    }

    /// The `BANDWIDTH` of the variant a stream belongs to, when it belongs to one.
    static func variantBitRate(_ stream: StreamDescription) -> Int? {
        stream.tags.first { $0.key == "variant_bitrate" }.flatMap { Int($0.value) }
    }
}
