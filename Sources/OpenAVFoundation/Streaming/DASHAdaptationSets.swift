// Playhead: which of a DASH Period's AdaptationSets and Representations Playhead plays. An
// element carrying an `EssentialProperty` whose scheme Playhead does not understand is left
// out, as the DASH standard asks of a client (a trick-mode set of key frames only, marked
// `http://dashif.org/guidelines/trickmode`, so never becomes a variant the adaptation could
// pick). The video ladder is one codec: the main video set (`Role` "main", else the first)
// and the other video sets of the same codec family (a packager splitting its ladder over
// sets); a set of another codec (an HEVC ladder beside an AVC one) is left out, as dash.js
// plays one video set, so a switch never changes the codec.
//
// Concurrency: pure functions; used on the thread that opens an input.
import Foundation

extension DASHManifest {
    /// The `EssentialProperty` schemes Playhead understands (colour description, frame
    /// packing, projection).
    static let understoodEssentialSchemes: Set<String> = [
        "urn:mpeg:mpegB:cicp:TransferCharacteristics", "urn:mpeg:mpegB:cicp:ColourPrimaries",
        "urn:mpeg:mpegB:cicp:MatrixCoefficients", "urn:mpeg:mpegB:cicp:VideoFramePackingType",
        "urn:mpeg:dash:14496:10:frame_packing_arrangement_type:2011", "urn:mpeg:mpegI:omaf:2017:pf",
    ]

    /// True when `node` (an AdaptationSet or a Representation) carries an `EssentialProperty`
    /// Playhead does not understand, so it is to be left out.
    static func isLeftOut(_ node: XMLTree) -> Bool {
        node.children("EssentialProperty").contains {
            !understoodEssentialSchemes.contains($0.attributes["schemeIdUri"] ?? "")
        }
    }

    /// The indices, among `sets` (a Period's AdaptationSets), of the video sets whose
    /// Representations make the ladder: the main one and those of its codec family.
    static func ladderSets(_ sets: [XMLTree], isVideo: (XMLTree) -> Bool) -> Set<Int> {
        let video = sets.indices.filter { isVideo(sets[$0]) && !isLeftOut(sets[$0]) }
        let main =
            video.first { index in sets[index].children("Role").contains { $0.attributes["value"] == "main" } }
            ?? video.first
        guard let main else { return [] }
        let family = codecFamily(of: sets[main])
        return Set(video.filter { family == nil || codecFamily(of: sets[$0]).map { $0 == family } ?? true })
    }

    /// The codec family a set's Representations state ("avc" for avc1 and avc3, "hevc" for
    /// hvc1 and hev1, "vp9", "av1", else the sample entry itself); nil when none is stated.
    static func codecFamily(of set: XMLTree) -> String? {
        guard
            let codecs = set.attributes["codecs"] ?? set.children("Representation").lazy.compactMap({ $0.attributes["codecs"] }).first,
            let entry = codecs.split(separator: ".").first.map({ String($0).lowercased() })
        else { return nil }
        switch entry {
        case "avc1", "avc3": return "avc"
        case "hvc1", "hev1": return "hevc"
        case "vp09", "vp9": return "vp9"
        case "av01": return "av1"
        case "dvh1", "dvhe": return "dolby-vision"
        default: return entry
        }
    }
}
