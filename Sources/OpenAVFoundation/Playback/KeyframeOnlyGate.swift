// Playhead: which video packets the decoder gets while fast playback decodes keyframes only
// (`EngineState.decodesKeyframesOnly`): above 4x on an item that cannot step through its
// keyframes, everything is still read (the sound plays at the rate's tempo), but only the
// keyframes are decoded, each drained at once so it shows when time reaches it; back at 4x or
// slower, the pictures after the last keyframe decoded are skipped until the next one (they
// would refer to pictures never decoded).
//
// Concurrency: a value owned by the video decode thread.
import FFmpegBridge

/// The video decode thread's choice, packet by packet, while keyframes only are decoded.
struct KeyframeOnlyGate {
    /// What to do with one packet.
    enum Verdict: Equatable {
        /// Decode it as usual.
        case decode
        /// Decode it and drain the decoder at once (a keyframe while only keyframes are
        /// decoded: nothing follows it into the decoder to push it out).
        case decodeAlone
        /// Do not decode it.
        case skip
    }

    /// True after a picture was skipped: the decoder's references are gone until the next
    /// keyframe.
    private(set) var awaitsKeyframe = false

    /// The verdict for `packet`, while only keyframes are decoded (`keyframesOnly`) or not.
    mutating func verdict(for packet: Packet, keyframesOnly: Bool) -> Verdict {
        if packet.isKeyframe {
            awaitsKeyframe = false
            return keyframesOnly ? .decodeAlone : .decode
        }
        if keyframesOnly || awaitsKeyframe {
            awaitsKeyframe = true
            return .skip
        }
        return .decode
    }

    /// The decoder was flushed (a seek): its next packet starts from a keyframe anyway.
    mutating func decoderFlushed() { awaitsKeyframe = false }
}
