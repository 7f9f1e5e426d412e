// Playhead: audio renditions in tiers, whose version follows the variant being fetched: an HLS
// multivariant playlist whose low and high variants name different audio groups (each group
// the same renditions by NAME, at other bit rates; or, where a packager named them apart,
// by LANGUAGE), or a DASH audio AdaptationSet of several
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
    /// One rendition (by NAME, else by LANGUAGE) in every group, lowest tier first.
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
    /// groups, each listing the same renditions by NAME (once each), or, when the NAMEs differ
    /// from group to group ("English 64k", "English 128k"), by LANGUAGE (once each); every one
    /// with a playlist of its own. A menu shows the lowest group's NAMEs. Nil otherwise
    /// (including when ``streamedAudio`` already streams the playlist: one group for every
    /// variant, or variants listed once per group).
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
        guard members.allSatisfy({ list in list.allSatisfy { $0.url != nil } }),
            let key = Self.pairingKey(members)
        else { return nil }
        let renditions = members[0].map { first in
            HLSAudioTiers.Rendition(versions: members.map { list in list.first { key($0) == key(first) }! })
        }
        return HLSAudioTiers(groups: groups, renditions: renditions)
    }

    /// What tells the same rendition in every one of `members` (the groups' renditions): its
    /// NAME when each group lists the same NAMEs once each, else its LANGUAGE when each lists
    /// the same languages once each; nil when neither does.
    private static func pairingKey(_ members: [[HLSAudioRendition]]) -> ((HLSAudioRendition) -> String?)? {
        let keys: [(HLSAudioRendition) -> String?] = [{ $0.name }, { $0.language?.lowercased() }]
        return keys.first { key in
            let first = members[0].map(key)
            guard !first.isEmpty, first.allSatisfy({ $0 != nil }), Set(first).count == first.count else { return false }
            return members.allSatisfy { list in list.count == first.count && Set(list.map(key)) == Set(first) }
        }
    }
}
