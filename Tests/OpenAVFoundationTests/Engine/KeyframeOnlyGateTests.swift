// Playhead: the video thread's choice while fast playback decodes keyframes only: pictures
// between keyframes are skipped, a keyframe is drained as the picture after it is skipped (a
// run of keyframes is not), pictures after the last keyframe decoded are skipped until the
// next one once every frame is decoded again, and keyframes that give no picture alone end it.
@testable import FFmpegBridge
import Testing

@testable import OpenAVFoundation

@Suite struct KeyframeOnlyGateTests {
    private func packet(_ keyframe: Bool) throws -> Packet {
        try #require(Packet(bytes: [0], streamIndex: 0, pts: 0, isKeyframe: keyframe))
    }

    /// The verdicts for a run of packets (K: keyframe, p: other), keyframes only or not.
    private func verdicts(_ gate: inout KeyframeOnlyGate, _ pattern: String, keyframesOnly: Bool) throws
        -> [KeyframeOnlyGate.Verdict]
    {
        try pattern.map { try gate.verdict(for: packet($0 == "K"), keyframesOnly: keyframesOnly) }
    }

    @Test func keyframesAreDecodedAndDrainedAsThePictureAfterIsSkipped() throws {
        var gate = KeyframeOnlyGate()
        #expect(try verdicts(&gate, "pKppKp", keyframesOnly: true) == [.skip, .decode, .skipAfterDraining, .skip, .decode, .skipAfterDraining])
        // All-intra video: a run of keyframes decodes on without a drain each.
        #expect(try verdicts(&gate, "KKK", keyframesOnly: true) == [.decode, .decode, .decode])
    }

    @Test func backToEveryFrameThePicturesBeforeTheNextKeyframeAreSkipped() throws {
        var gate = KeyframeOnlyGate()
        _ = try verdicts(&gate, "Kp", keyframesOnly: true)
        #expect(try verdicts(&gate, "ppKp", keyframesOnly: false) == [.skip, .skip, .decode, .decode])
        // Never skipped: nothing to wait for.
        var fresh = KeyframeOnlyGate()
        #expect(try verdicts(&fresh, "pKp", keyframesOnly: false) == [.decode, .decode, .decode])
        // A flush (a seek) starts from a keyframe anyway.
        _ = try verdicts(&gate, "Kp", keyframesOnly: true)
        gate.decoderFlushed()
        #expect(try verdicts(&gate, "p", keyframesOnly: false) == [.decode])
    }

    @Test func keyframesThatGiveNoPictureAloneEndKeyframesOnlyDecoding() throws {
        var gate = KeyframeOnlyGate()
        _ = try verdicts(&gate, "Kp", keyframesOnly: true)
        gate.drained(letOut: 0)
        _ = try verdicts(&gate, "Kp", keyframesOnly: true)
        gate.drained(letOut: 1)
        #expect(!gate.gaveUp, "one picture resets the count")
        for _ in 0..<KeyframeOnlyGate.fruitlessDrainLimit {
            _ = try verdicts(&gate, "Kp", keyframesOnly: true)
            gate.drained(letOut: 0)
        }
        #expect(gate.gaveUp)
        // A decoder with no delay lets the keyframe's picture out before the drain.
        var prompt = KeyframeOnlyGate()
        for _ in 0..<3 {
            _ = try verdicts(&prompt, "K", keyframesOnly: true)
            prompt.noteLetOut(1)
            _ = try verdicts(&prompt, "p", keyframesOnly: true)
            prompt.drained(letOut: 0)
        }
        #expect(!prompt.gaveUp)
        #expect(try verdicts(&gate, "KppK", keyframesOnly: true) == [.decode, .decode, .decode, .decode])
    }
}
