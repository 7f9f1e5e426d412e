// Playhead: a DASH manifest's alternative locations. An MPD may name its content more than
// once with several `BaseURL` elements at its top level (the same segments on several CDNs,
// DVB-DASH's `serviceLocation`, ordered by `dvb:priority`). Playhead reads the manifest once
// per location; the first is what plays, and each Representation's copies on the others are
// the backups of its variant (RFC 8216's redundant streams in HLS terms): when a segment is
// refused or keeps failing, the loader goes on from the next location
// (HLSStreamLoader+Backups.swift). Only the MPD's own `BaseURL`s are alternatives; a Period's,
// set's or Representation's first `BaseURL` is used as before.
//
// Concurrency: values and pure functions; used on the thread that opens an input and, for a
// live manifest, on the loaders' threads.
import Foundation

extension DASHManifest {
    /// The MPD's top-level `BaseURL` elements in the order they are tried: by `dvb:priority`
    /// (lower first) where given, else as written.
    static func baseURLElements(of mpd: XMLTree) -> [XMLTree] {
        let elements = mpd.children("BaseURL").enumerated().map { position, element in
            (element, Int(element.attributes["dvb:priority"] ?? "") ?? Int.max, position)
        }
        return elements.sorted { ($0.1, $0.2) < ($1.1, $1.2) }.map(\.0)
    }

    /// How many locations the MPD names (at least one: its own URL when it has no `BaseURL`).
    static func locationCount(of mpd: XMLTree) -> Int {
        max(1, baseURLElements(of: mpd).count)
    }

    /// `mpd` with location `index` (an index into ``baseURLElements(of:)``) as its only
    /// top-level `BaseURL`; `mpd` itself when it names fewer.
    static func choosingLocation(_ index: Int, of mpd: XMLTree) -> XMLTree {
        let elements = baseURLElements(of: mpd)
        guard elements.indices.contains(index) else { return mpd }
        var chosen = mpd
        chosen.children = [elements[index]] + mpd.children.filter { $0.name != "BaseURL" }
        return chosen
    }

    /// True when `other` has the same shape (its variants and audio sets, Representation for
    /// Representation, by identifier): the same presentation read from another location.
    func isCopy(of other: DASHManifest) -> Bool {
        variants.map(\.id) == other.variants.map(\.id)
            && audio.map { $0.representations.map(\.id) } == other.audio.map { $0.representations.map(\.id) }
    }

    /// The manifest read from each location after the first (in order), each a copy of
    /// `primary` (a location that reads differently is left out), by `read` (a static or a
    /// live reading of a tree).
    static func copies(
        of primary: DASHManifest, in mpd: XMLTree, read: (XMLTree) -> DASHManifest?
    ) -> [DASHManifest] {
        let count = locationCount(of: mpd)
        guard count > 1 else { return [] }
        return (1..<count).compactMap { index in
            read(choosingLocation(index, of: mpd)).flatMap { $0.isCopy(of: primary) ? $0 : nil }
        }
    }
}
