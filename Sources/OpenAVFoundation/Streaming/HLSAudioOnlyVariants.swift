// Playhead: audio-only variants of a ladder with pictures. Apple's authoring guidance asks
// for one (a 64 kbit/s fallback for the worst links), and FFmpeg's HLS muxer lists the audio
// rendition's playlist as a variant of its own. Adapting down to it would lose the pictures,
// and opening on it would make an item without a video track; so, as hls.js and Media3 do,
// the loader adapts over the variants with video alone (`AVAsset.variants` still lists them
// all). As hls.js reads them, a variant has video when it states a `RESOLUTION` or a video
// codec, and is audio-only when it states neither but an audio codec (subtitle codecs such
// as `stpp` or `wvtt` beside it change nothing); one that states no codecs and no size is
// not known to be either and stays. A ladder without video (a radio station's) is kept whole.
//
// Concurrency: pure functions.
import Foundation

extension HLSVariant {
    /// The `CODECS` entries.
    private var codecEntries: [String] {
        (codecs ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// True when the variant states a picture size or a video codec.
    var hasVideo: Bool {
        width != nil || height != nil || codecEntries.contains { AVAssetVariant.videoCodec($0) != nil }
    }

    /// True when the variant states an audio codec and neither a picture size nor a video codec.
    var isAudioOnly: Bool {
        !hasVideo && codecEntries.contains { AVAssetVariant.audioFormat($0) != nil }
    }
}

extension Array where Element == HLSVariant {
    /// The variants to adapt over: all but the audio-only ones when some have video (see the
    /// file comment).
    var adaptedOver: [HLSVariant] {
        contains(where: \.hasVideo) ? filter { !$0.isAudioOnly } : self
    }
}
