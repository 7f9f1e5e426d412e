// Playhead: a DASH manifest's alternative locations. An MPD may name its content more than
// once with several `BaseURL` elements at its top level (the same segments on several CDNs,
// DVB-DASH's `serviceLocation`, ordered by `dvb:priority`). Playhead reads the manifest once
// per location; the first is what plays, and each Representation's copies on the others are
// the backups of its variant (RFC 8216's redundant streams in HLS terms): when a segment is
// refused or keeps failing, the loader goes on from the next location
// (HLSStreamLoader+Backups.swift). Only the MPD's own `BaseURL`s are alternatives; a Period's,
// set's or Representation's first `BaseURL` is used as before. Each location's
// `serviceLocation` is its content steering pathway: a `ContentSteering` element names the
// steering server that ranks them (HLSContentSteering.swift), and the location played first
// is the one it ranks first (when `queryBeforeStart`), else its `defaultServiceLocation`.
//
// Concurrency: values and pure functions; used on the thread that opens an input and, for a
// live manifest, on the loaders' threads.
import Foundation

/// A DASH manifest's `ContentSteering` element.
struct DASHSteeringTag: Equatable, Sendable {
    /// The steering server (the element's text, resolved against the manifest's URL).
    let serverURL: URL
    /// `defaultServiceLocation`: the locations to start on, best first.
    let defaultLocations: [String]
    /// `queryBeforeStart`: the first ranking is asked for before playback starts.
    let queryBeforeStart: Bool
    /// `proxyServerURL`: every steering request goes there instead, naming the steering
    /// server's URL in its `url` parameter. (`clientRequirement`, which says whether a
    /// client that cannot steer may play the stream at all, needs nothing: Playhead steers.)
    var proxyURL: URL? = nil
}

extension DASHManifest {
    /// The MPD's `ContentSteering` element read against `base`; nil when it has none.
    static func steering(of mpd: XMLTree, base: URL) -> DASHSteeringTag? {
        guard let element = mpd.child("ContentSteering"),
            let url = URL(string: element.text.trimmingCharacters(in: .whitespacesAndNewlines), relativeTo: base)?.absoluteURL
        else { return nil }
        return DASHSteeringTag(
            serverURL: url,
            defaultLocations: (element.attributes["defaultServiceLocation"] ?? "").split(separator: " ").map(String.init),
            queryBeforeStart: element.attributes["queryBeforeStart"] == "true",
            proxyURL: element.attributes["proxyServerURL"].flatMap { URL(string: $0, relativeTo: base)?.absoluteURL })
    }

    /// The service location (content steering pathway) of a top-level `BaseURL` element: its
    /// `serviceLocation`, else its URL.
    static func serviceLocation(of element: XMLTree) -> String {
        element.attributes["serviceLocation"] ?? element.text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The MPD's top-level `BaseURL` elements in the order they are tried: the service
    /// locations `preferring` names in its order, then by `dvb:priority` (lower first) where
    /// given, else as written.
    static func baseURLElements(of mpd: XMLTree, preferring: [String] = []) -> [XMLTree] {
        let elements = mpd.children("BaseURL").enumerated().map { position, element in
            (element, preferring.firstIndex(of: serviceLocation(of: element)) ?? preferring.count,
                Int(element.attributes["dvb:priority"] ?? "") ?? Int.max, position)
        }
        return elements.sorted { ($0.1, $0.2, $0.3) < ($1.1, $1.2, $1.3) }.map(\.0)
    }

    /// How many locations the MPD names (at least one: its own URL when it has no `BaseURL`).
    static func locationCount(of mpd: XMLTree) -> Int {
        max(1, baseURLElements(of: mpd).count)
    }

    /// `mpd` with location `index` (an index into ``baseURLElements(of:preferring:)``) as its
    /// only top-level `BaseURL`; `mpd` itself when it names fewer.
    static func choosingLocation(_ index: Int, of mpd: XMLTree, preferring: [String] = []) -> XMLTree {
        let elements = baseURLElements(of: mpd, preferring: preferring)
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

    /// The manifest read from each location after the first (in the order `preferring`
    /// gives), each a copy of `primary`, by `read` (a static or a live reading of a tree).
    /// None when a location reads differently: a location's place in the order is its
    /// variants' source number, which a gap would shift.
    static func copies(
        of primary: DASHManifest, in mpd: XMLTree, preferring: [String] = [], read: (XMLTree) -> DASHManifest?
    ) -> [DASHManifest] {
        let count = locationCount(of: mpd)
        guard count > 1 else { return [] }
        let read = (1..<count).compactMap { index in
            read(choosingLocation(index, of: mpd, preferring: preferring)).flatMap { $0.isCopy(of: primary) ? $0 : nil }
        }
        return read.count == count - 1 ? read : []
    }
}
