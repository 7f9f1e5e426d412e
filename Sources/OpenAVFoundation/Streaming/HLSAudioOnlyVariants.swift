// Playhead: audio-only variants of a ladder with pictures. Apple's authoring guidance asks
// for one (a 64 kbit/s fallback for the worst links), and FFmpeg's HLS muxer lists the audio
// rendition's playlist as a variant of its own. Adapting down to it would lose the pictures,
// and opening on it would make an item without a video track; so, as hls.js and Media3 do,
// the loader adapts over the variants with video alone (`AVAsset.variants` still lists them
// all). A variant is audio-only when its `CODECS` names audio codecs only and it states no
// `RESOLUTION`; a ladder of audio-only variants (a radio station's) is kept whole.
//
// Concurrency: pure functions.
import Foundation

extension HLSVariant {
    /// True when the variant states audio codecs alone and no picture size.
    var isAudioOnly: Bool {
        guard width == nil, height == nil, let codecs else { return false }
        let entries = codecs.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return !entries.isEmpty && entries.allSatisfy { AVAssetVariant.audioFormat($0) != nil }
    }
}

extension Array where Element == HLSVariant {
    /// The variants to adapt over: those with video when some have it (see the file comment).
    var adaptedOver: [HLSVariant] {
        let withVideo = filter { !$0.isAudioOnly }
        return withVideo.isEmpty ? self : withVideo
    }
}
