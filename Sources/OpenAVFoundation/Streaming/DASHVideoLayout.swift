// Playhead: the video layout a DASH video Representation declares: stereo frame packing
// (`FramePacking`, ISO/IEC 23009-1 5.8.4.6, in the CICP VideoFramePackingType scheme of
// ISO/IEC 23091-2 or the H.264 frame packing arrangement scheme) and the OMAF projection
// (`urn:mpeg:mpegI:omaf:2017:pf`, ISO/IEC 23090-2). What the variants report as
// `AVAssetVariant.VideoAttributes.videoLayoutAttributes`.
//
// Concurrency: pure functions; used on the thread that opens an input.
import FFmpegBridge
import Foundation

extension DASHManifest {
    /// Frame packing schemes whose values are the CICP VideoFramePackingType (the H.264 frame
    /// packing arrangement types share the numbers).
    private static let framePackingSchemes: Set<String> = [
        "urn:mpeg:mpegB:cicp:VideoFramePackingType", "urn:mpeg:dash:14496:10:frame_packing_arrangement_type:2011",
    ]
    /// The OMAF projection format scheme.
    private static let projectionScheme = "urn:mpeg:mpegI:omaf:2017:pf"

    /// The layout of a video Representation (`node`, in `set`): stereo when a `FramePacking`
    /// element names a packing of two views (checkerboard, column or row interleaving,
    /// side-by-side, top-bottom, frame alternation, tiles: types 0–5 and 7; type 6 is flat),
    /// equirectangular when an OMAF projection property says projection type 0. Nil when it
    /// states neither, or a packing or projection it cannot be told as (a cube map): the
    /// variant then reports flat, rectangular video, as an HLS variant without
    /// `REQ-VIDEO-LAYOUT` does.
    static func videoLayout(of node: XMLTree, in set: XMLTree) -> StreamVideoLayout? {
        let packings = (node.children("FramePacking") + set.children("FramePacking")).filter {
            framePackingSchemes.contains($0.attributes["schemeIdUri"] ?? "")
        }
        let packing = packings.first?.attributes["value"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let properties = [node, set].flatMap { $0.children("EssentialProperty") + $0.children("SupplementalProperty") }
        let projectionProperty = properties.first { $0.attributes["schemeIdUri"] == projectionScheme }
        // `omaf:projection_type` lists the types used; an absent list means equirectangular.
        let projectionTypes = projectionProperty.map { property in
            let declared = property.attributes.first { $0.key == "projection_type" || $0.key.hasSuffix(":projection_type") }
            return declared?.value.split(whereSeparator: \.isWhitespace).compactMap { Int($0) } ?? [0]
        }
        if packing == nil && projectionTypes == nil { return nil }
        var layout = StreamVideoLayout()
        if let packing {
            guard [0, 1, 2, 3, 4, 5, 6, 7].contains(packing) else { return nil }
            layout.isStereo = packing != 6
        }
        if let projectionTypes {
            guard projectionTypes == [0] else { return nil }
            layout.projection = .equirectangular
        }
        return layout
    }
}
