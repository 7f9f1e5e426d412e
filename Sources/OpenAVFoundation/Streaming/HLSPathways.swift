// Playhead: HLS content steering's pathways (RFC 8216bis 4.4.6.6, Apple's HLS Content Steering
// specification). A multivariant playlist may list its ladder once per pathway (a CDN, say),
// each variant tagged with `PATHWAY-ID` and naming audio groups of its pathway; a steering
// server says which pathway to use. Playhead plays one pathway's variants and renditions and
// keeps the same variant (or rendition) on the other pathways as its backups, in the order of
// the pathway priority: the loader turns to them when the pathway fails, and moves every
// variant to another pathway when the steering server says so (HLSContentSteering.swift).
//
// Concurrency: value types and pure functions.
import Foundation

/// `EXT-X-CONTENT-STEERING`: where the steering manifest is and the pathway to start on.
struct HLSSteeringTag: Equatable, Sendable {
    /// The pathway of variants that name none.
    static let defaultPathway = "."

    /// `SERVER-URI`, resolved against the playlist's URL (may be a `data:` URI).
    let serverURL: URL
    /// `PATHWAY-ID`: the pathway to use until the first steering manifest came, when given.
    let pathway: String?

    /// The tag's attributes; nil without a `SERVER-URI`.
    init?(attributes: [String: String], base: URL) throws(HLSPlaylist.ParseError) {
        guard let uri = attributes["SERVER-URI"] else { return nil }
        serverURL = uri.hasPrefix("data:") ? (URL(string: uri) ?? base) : try HLSPlaylist.resolve(uri, base)
        pathway = attributes["PATHWAY-ID"]
    }

    init(serverURL: URL, pathway: String?) {
        self.serverURL = serverURL
        self.pathway = pathway
    }
}

extension HLSVariant {
    /// The variant read from its backup `index` (an index into `backups`): that URI first, the
    /// others after it, its own last (each with its pathway).
    func failingOver(to index: Int) -> HLSVariant {
        var moved = self
        moved.url = backups[index]
        moved.backups = Array(backups[(index + 1)...]) + Array(backups[..<index]) + [url]
        moved.pathway = pathway(ofSource: index + 1)
        moved.backupPathways = (Array(index + 1..<backups.count) + Array(0..<index)).map { self.pathway(ofSource: $0 + 1) }
            + [pathway]
        return moved
    }

    /// The pathway of source `source`: 0 its own URI, N its backup N - 1.
    func pathway(ofSource source: Int) -> String {
        source == 0 ? pathway : backupPathways.indices.contains(source - 1) ? backupPathways[source - 1] : pathway
    }

    /// True when `other` is the same variant on another pathway: the same rates, picture,
    /// codecs and layouts (its URIs, pathway and rendition groups may differ).
    func isCopy(onAnotherPathway other: HLSVariant) -> Bool {
        other.pathway != pathway && other.bandwidth == bandwidth && other.averageBandwidth == averageBandwidth
            && other.width == width && other.height == height && other.codecs == codecs
            && other.frameRate == frameRate && other.videoRange == videoRange && other.videoLayouts == videoLayouts
    }
}

extension HLSMultivariantPlaylist {
    /// The pathways its variants belong to, in the order first listed.
    var pathways: [String] {
        var seen: [String] = []
        for variant in variants where !seen.contains(variant.pathway) { seen.append(variant.pathway) }
        return seen
    }

    /// The pathway to play first when the steering manifest ranks them `priority` (empty: not
    /// had): the first ranked one it lists, else the tag's, else the first listed.
    func startPathway(priority: [String] = []) -> String {
        let listed = pathways
        return priority.first { listed.contains($0) }
            ?? steering?.pathway.flatMap { listed.contains($0) ? $0 : nil } ?? listed.first ?? HLSSteeringTag.defaultPathway
    }

    /// The playlist as played on `pathway`: its variants and audio renditions alone, each with
    /// its copies on the other pathways appended to its backups (ranked by `priority`, then in
    /// the order listed). Itself when it lists one pathway.
    func onPathway(_ pathway: String, priority: [String] = []) -> HLSMultivariantPlaylist {
        let listed = pathways
        guard listed.count > 1, listed.contains(pathway) else { return self }
        let others = listed.filter { $0 != pathway }.sorted { rank($0, in: priority) < rank($1, in: priority) }
        var steered = self
        var groups: [String: [String: String]] = [:]  // pathway -> group on `pathway` -> its copy there
        steered.variants = variants.filter { $0.pathway == pathway }.map { variant in
            var variant = variant
            for other in others {
                guard let copy = variants.first(where: { $0.pathway == other && variant.isCopy(onAnotherPathway: $0) })
                else { continue }
                variant.backups += [copy.url] + copy.backups
                variant.backupPathways += [other] + copy.backupPathways
                if let group = variant.audioGroup, let copied = copy.audioGroup { groups[other, default: [:]][group] = copied }
            }
            return variant
        }
        let kept = Set(steered.variants.compactMap(\.audioGroup))
        steered.audioRenditions = audioRenditions.filter { kept.contains($0.group) }.map { rendition in
            var rendition = rendition
            for other in others {
                guard let group = groups[other]?[rendition.group],
                    let copy = audioRenditions.first(where: {
                        $0.group == group && $0.name == rendition.name && $0.language == rendition.language
                    }),
                    let url = copy.url
                else { continue }
                rendition.backups.append(url)
                rendition.backupPathways.append(other)
            }
            return rendition
        }
        return steered
    }

    private func rank(_ pathway: String, in priority: [String]) -> Int {
        priority.firstIndex(of: pathway) ?? priority.count + (pathways.firstIndex(of: pathway) ?? 0)
    }
}

/// A pathway a steering server makes by copying another (`PATHWAY-CLONES`): every variant and
/// rendition of `baseID`, read from elsewhere: the URI given for its stable ID, else its own
/// with the host replaced and query parameters added. (DASH's clones copy a service location:
/// each segment's URL there with the host replaced and the parameters added.)
struct HLSPathwayClone: Equatable, Sendable {
    /// `BASE-ID`, the pathway copied, and `ID`, the new one.
    let baseID: String
    let id: String
    /// `URI-REPLACEMENT`'s `HOST`, `PARAMS`, `PER-VARIANT-URIS` and `PER-RENDITION-URIS`
    /// (resolved against the steering manifest's URL).
    let host: String?
    let parameters: [String: String]
    let variantURLs: [String: URL]
    let renditionURLs: [String: URL]

    /// The clone one `PATHWAY-CLONES` entry describes (read from `base`); nil without both IDs.
    /// `perStreamURIs`: false for DASH, whose clones name no stream's own URI.
    init?(_ entry: [String: Any], base: URL, perStreamURIs: Bool = true) {
        guard let baseID = entry["BASE-ID"] as? String, let id = entry["ID"] as? String, !id.isEmpty else { return nil }
        self.baseID = baseID
        self.id = id
        let replacement = entry["URI-REPLACEMENT"] as? [String: Any] ?? [:]
        host = replacement["HOST"] as? String
        parameters = replacement["PARAMS"] as? [String: String] ?? [:]
        func urls(_ key: String) -> [String: URL] {
            (replacement[key] as? [String: String] ?? [:]).compactMapValues { URL(string: $0, relativeTo: base)?.absoluteURL }
        }
        variantURLs = perStreamURIs ? urls("PER-VARIANT-URIS") : [:]
        renditionURLs = perStreamURIs ? urls("PER-RENDITION-URIS") : [:]
    }

    /// Where a variant (or, when `isRendition`, an audio rendition) with stable ID `stableID`
    /// read from `url` on the base pathway is read on the clone.
    func url(cloning url: URL, stableID: String?, isRendition: Bool) -> URL {
        if let stableID, let given = (isRendition ? renditionURLs : variantURLs)[stableID] { return given }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return url }
        if let host { components.host = host }
        if !parameters.isEmpty {
            // The URL's own parameters are kept byte for byte (a signed token's `%2B` must not
            // come back as `+`), those the clone sets replaced, its own added encoded.
            let kept = (components.percentEncodedQuery ?? "").split(separator: "&").filter { item in
                let name = item.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                return parameters[name.removingPercentEncoding ?? name] == nil
            }.map(String.init)
            let added = parameters.keys.sorted().map { Self.encoded($0) + "=" + Self.encoded(parameters[$0] ?? "") }
            components.percentEncodedQuery = (kept + added).joined(separator: "&")
        }
        return components.url ?? url
    }

    /// `text` percent-encoded for a query's name or value (`&`, `=`, `+` and `#` too).
    private static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryValueCharacters) ?? text
    }

    private static let queryValueCharacters = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#"))
}

extension HLSMediaPlaylist {
    /// The playlist read on `clone`: every segment and initialisation section at the URL the
    /// clone gives for it (a DASH Representation on a cloned service location, whose
    /// playlist comes from the manifest rather than from a URL of its own).
    func cloned(by clone: HLSPathwayClone) -> HLSMediaPlaylist {
        let move = { (url: URL) in clone.url(cloning: url, stableID: nil, isRendition: false) }
        var copy = self
        copy.initialisation = initialisation.map(move)
        copy.segments = segments.map { segment in
            var moved = segment
            moved.url = move(segment.url)
            if let map = segment.map { moved.map?.url = move(map.url) }
            return moved
        }
        return copy
    }
}
