// Playhead: which video packets the decoder gets while fast playback decodes keyframes only
// (`EngineState.decodesKeyframesOnly`): above 4x on an item that cannot step through its
// keyframes, everything is still read (the sound plays at the rate's tempo), but only the
// keyframes are decoded, each drained from the decoder as the first picture after it is skipped
// so it shows when time reaches it (a run of keyframes, all-intra video, is not drained); back
// at 4x or slower, the pictures after the last keyframe decoded are skipped until the next one
// (they would refer to pictures never decoded). A stream whose keyframes decoded alone give
// no picture (intra refresh: its recovery points are flagged as keyframes) has every frame
// decoded again.
//
// Concurrency: a value owned by the video decode thread.
import FFmpegBridge

/// The video decode thread's choice, packet by packet, while keyframes only are decoded.
struct KeyframeOnlyGate {
    /// What to do with one packet.
    enum Verdict: Equatable {
        /// Decode it as usual.
        case decode
        /// Do not decode it.
        case skip
        /// Do not decode it, but first drain the decoder of the keyframe before it (nothing
        /// else follows the keyframe in to push its picture out) and flush it.
        case skipAfterDraining
    }

    /// Keyframes drained in a row that gave no picture before keyframes-only decoding is given
    /// up for the item.
    static let fruitlessDrainLimit = 2

    /// True after a picture was skipped: the decoder's references are gone until the next
    /// keyframe.
    private(set) var awaitsKeyframe = false
    /// True while a keyframe sent in keyframes-only decoding has not been drained.
    private var undrained = false
    /// Drains in a row that let no picture out.
    private var fruitlessDrains = 0
    /// Pictures the decoder let out since the last keyframe went in.
    private var picturesSinceKeyframe = 0
    /// True once keyframes alone gave no picture: every frame is decoded.
    private(set) var gaveUp = false

    /// The verdict for `packet`, while only keyframes are decoded (`keyframesOnly`) or not.
    mutating func verdict(for packet: Packet, keyframesOnly: Bool) -> Verdict {
        let keyframesOnly = keyframesOnly && !gaveUp
        if packet.isKeyframe {
            awaitsKeyframe = false
            picturesSinceKeyframe = 0
            undrained = keyframesOnly
            return .decode
        }
        if keyframesOnly || awaitsKeyframe {
            awaitsKeyframe = true
            defer { undrained = false }
            return undrained ? .skipAfterDraining : .skip
        }
        undrained = false
        return .decode
    }

    /// Notes pictures the decoder let out as packets went in (a decoder with no delay lets a
    /// keyframe's picture out before any drain).
    mutating func noteLetOut(_ pictures: Int) { picturesSinceKeyframe += pictures }

    /// Notes how many pictures a drain let out after the keyframe before it.
    mutating func drained(letOut pictures: Int) {
        fruitlessDrains = picturesSinceKeyframe + pictures > 0 ? 0 : fruitlessDrains + 1
        if fruitlessDrains >= Self.fruitlessDrainLimit { gaveUp = true }
    }

    /// The decoder was flushed (a seek): its next packet starts from a keyframe anyway.
    mutating func decoderFlushed() {
        awaitsKeyframe = false
        undrained = false
        fruitlessDrains = 0
    }
}
