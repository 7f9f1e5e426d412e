// Playhead: audio renditions in tiers, whose version follows the variant being fetched: an HLS
// multivariant playlist whose low and high variants name different audio groups (each group
// the same renditions by NAME, at other bit rates), or a DASH audio AdaptationSet of several
// Representations. Each rendition is one loader (one track, one menu option) whose variants
// are its versions; it fetches the version tied to the variants' loader's latest choice.
//
// Concurrency: `AudioTiers` is a value; `LeadingChoice` lives in the variants' loader behind
// a `Locked` (a leaf lock: taken alone, or inside a loader's own condition, never around one),
// written by that loader's thread and read by its followers' threads.
import Foundation

/// The variants' loader's latest choices, for the renditions that follow it.
struct LeadingChoice: Sendable {
    /// The variant of the last segment it chose (index into its ascending variants).
    var variant: Int?
    /// The seconds it reads ahead of the playhead at that variant.
    var readAhead: Double?
    /// The variant chosen for each of its recent segments (the media seconds each covers),
    /// newest last; emptied when the stream restarts elsewhere.
    private(set) var segments: [(range: Range<Double>, variant: Int)] = []

    /// Notes that `variant` was chosen for the segment covering `range`.
    mutating func chose(_ variant: Int, for range: Range<Double>) {
        self.variant = variant
        segments.append((range, variant))
        if segments.count > 32 { segments.removeFirst() }
    }

    /// Forgets the segments chosen (a restart at another time).
    mutating func restarted() { segments.removeAll() }

    /// The variant chosen for the segment covering `time`, when one was.
    func variant(covering time: Double) -> Int? { segments.last { $0.range.contains(time) }?.variant }
}

/// How an audio rendition's loader follows the variants' loader: which of its versions plays
/// with each variant.
struct AudioTierFollowing: Sendable {
    /// For each of the leader's variants, ascending, the index of the version that plays with it.
    let tierOfVariant: [Int]
    /// Reads the leader's latest choices (nil once the leader is gone).
    let leader: @Sendable () -> LeadingChoice?

    /// The version to fetch for the segment covering `range`: on a VOD timeline the one tied
    /// to the variant the leader chose for the media there when it has (a live rendition's
    /// segment times are its own); else the one tied to its latest choice; else `current`.
    /// Never waits for the leader: a rendition that waited would hold up the demuxer, which
    /// reads the sources in decode order, and so the playhead the leader fetches by; at worst
    /// the version changes a segment before or after the picture does.
    func tier(for range: Range<Double>, live: Bool, current: Int) -> Int {
        guard let choice = leader() else { return current }
        let middle = (range.lowerBound + range.upperBound) / 2
        if !live, let variant = choice.variant(covering: middle) { return tier(of: variant, current: current) }
        return choice.variant.map { tier(of: $0, current: current) } ?? current
    }

    private func tier(of variant: Int, current: Int) -> Int {
        tierOfVariant.indices.contains(variant) ? tierOfVariant[variant] : current
    }

    /// The seconds to read ahead: the leader's, so its versions change about when the leader's
    /// variants do; `full` until it has said.
    func readAhead(full: Double) -> Double { leader()?.readAhead ?? full }
}

/// The audio renditions of a multivariant playlist with tiered audio groups.
struct HLSAudioTiers: Equatable, Sendable {
    /// One rendition (by NAME) in every group, lowest tier first.
    struct Rendition: Equatable, Sendable {
        /// The rendition of each tier, in tier order.
        let versions: [HLSAudioRendition]
        var name: String { versions[0].name }
    }

    /// The groups, ascending by the lowest bandwidth of the variants naming them.
    let groups: [String]
    /// The renditions, in the lowest group's playlist order.
    let renditions: [Rendition]

    /// For each of `variants`, the tier (index into `groups`) of the group it names.
    func tiers(of variants: [HLSVariant]) -> [Int] {
        variants.map { variant in variant.audioGroup.flatMap { groups.firstIndex(of: $0) } ?? 0 }
    }
}

extension HLSMultivariantPlaylist {
    /// Tiered audio groups the loader streams: every variant names a group; there are several
    /// groups, each listing the same renditions by NAME (once each), every one with a playlist
    /// of its own. Nil otherwise (including when ``streamedAudio`` already streams the
    /// playlist: one group for every variant, or variants listed once per group).
    var tieredAudio: HLSAudioTiers? {
        guard !renditionTypes.contains("VIDEO"), !audioRenditions.isEmpty, streamedAudio == nil else { return nil }
        var lowest: [String: Int] = [:]
        for variant in variants {
            guard let group = variant.audioGroup else { return nil }
            lowest[group] = min(lowest[group] ?? .max, variant.bandwidth)
        }
        let groups = lowest.keys.sorted { (lowest[$0]!, $0) < (lowest[$1]!, $1) }
        guard groups.count >= 2 else { return nil }
        let members = groups.map { group in audioRenditions.filter { $0.group == group } }
        let names = members[0].map(\.name)
        guard !names.isEmpty, Set(names).count == names.count else { return nil }
        for list in members {
            guard list.count == names.count, Set(list.map(\.name)) == Set(names), list.allSatisfy({ $0.url != nil })
            else { return nil }
        }
        let renditions = names.map { name in
            HLSAudioTiers.Rendition(versions: members.map { list in list.first { $0.name == name }! })
        }
        return HLSAudioTiers(groups: groups, renditions: renditions)
    }
}
