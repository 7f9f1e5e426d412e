// Playhead: the engine's rules for fast forward through keyframes: above 2x on an item whose
// source fetches keyframes alone, steps are keyframe seeks of the engine's own to the keyframe
// after the picture, time runs on through them (and is reported), no sound plays, the end
// comes with time, and leaving fast forward with a step in flight seeks to where time stands.
@testable import FFmpegBridge
import Foundation
import Testing

@testable import OpenAVFoundation

extension EngineStateHandleTests {
    /// An opened item of 10 s whose source fetches keyframes alone, at `rate` from 2 s at host 10.
    private func fastForward(rate: Double = 8, keyframes: Bool = true) -> EngineState {
        var state = EngineState()
        state.isNetwork = true
        let parts = OpenedParts(
            pipeline: pipeline(), duration: seconds(10), forwardEndTime: .invalid, reverseEndTime: .invalid,
            audioStream: 1, forwardStepsAbove: keyframes ? EngineState.keyframeFastForwardRate : nil)
        _ = state.handle(.opened(parts, host: 0))
        _ = state.handle(.setRate(1, host: 0))
        _ = state.handle(.setRate(rate, host: 2))
        return state
    }

    @Test func aForwardStepIsAKeyframeSeekOfItsOwnWhileTimeRunsOnSilently() throws {
        var state = fastForward()
        #expect(state.stepsForward && !state.playsSound && state.stepsThroughKeyframes)
        #expect(state.itemTime(atHost: 2.125).seconds == 3, "time runs at the rate on the system clock")
        #expect(names(state.handle(.forwardStepDue(after: seconds(3)))) == ["flush 1", "wake all"])
        let step = try #require(state.seek)
        #expect(step.isForwardStep && step.isEngineOwn && !step.isReverseStep)
        #expect(step.request.target == seconds(3) && step.request.toleranceBefore == .zero)
        #expect(step.request.toleranceAfter == .positiveInfinity)
        // In flight: time runs on (not the target), time reports go up, buffer flags do not,
        // and a second step waits.
        #expect(state.itemTime(atHost: 2.25).seconds == 4)
        _ = state.handle(.observersNeedTime(at: seconds(3.5)))
        #expect(names(state.handle(.timeDue(seconds(4), generation: 1))).first == "time 4.0 of 1")
        #expect(state.acceptsTimeReport(of: 0), "reports made before the step are still current")
        #expect(names(state.handle(.bufferCheck(endOfStream: false, force: true, host: 2.25))) == [])
        #expect(state.handle(.forwardStepDue(after: seconds(4))).isEmpty)
        // The keyframe at 4 s shows when time reaches it: no new anchor, nothing to the player.
        _ = state.handle(.videoLanding(generation: 1, at: seconds(4)))
        #expect(names(state.handle(.firstFrameShown(generation: 1, time: seconds(4), host: 2.26))) == ["wake 1"])
        #expect(state.itemTime(atHost: 2.375).seconds == 5)
        #expect(state.isPaused(at: 1), "the video thread rests after each step's picture")
    }

    @Test func slowRatesAndSourcesWithoutKeyframesPlayEveryFrameWithSound() {
        var slow = fastForward(rate: 2)
        #expect(!slow.stepsForward && slow.playsSound)
        #expect(slow.handle(.forwardStepDue(after: seconds(3))).isEmpty)
        var plain = fastForward(keyframes: false)
        #expect(!plain.stepsForward && plain.playsSound)
        #expect(plain.handle(.forwardStepDue(after: seconds(3))).isEmpty)
    }

    @Test func leavingFastForwardWithAStepInFlightSeeksExactlyWhereTimeStands() throws {
        var state = fastForward()
        _ = state.handle(.forwardStepDue(after: seconds(3)))
        // Paused at 4 s (host 2.25): the keyframe ahead is dropped for the frame at 4 s.
        #expect(names(state.handle(.setRate(0, host: 2.25))) == ["flush 2", "output", "wake all"])
        let seek = try #require(state.seek)
        #expect(seek.request.target == seconds(4) && seek.request.isExact && !seek.isKeyframeStep && seek.isEngineOwn)
        // Backward from fast forward likewise; fast forward from backward play's step too.
        var backward = fastForward()
        _ = backward.handle(.forwardStepDue(after: seconds(3)))
        #expect(names(backward.handle(.setRate(-1, host: 2.25))).first == "flush 2")
        var forward = fastForward()
        _ = forward.handle(.setRate(-1, host: 2.25))
        _ = forward.handle(.reverseStepDue(to: seconds(3.9)))
        #expect(names(forward.handle(.setRate(8, host: 2.3))).first == "flush 2")
        #expect(forward.seek?.request.isExact == true && forward.seek?.request.target == seconds(3.95))
    }

    @Test func pausedBetweenStepsThePictureIsTheFrameWhereTimeStands() throws {
        var state = fastForward()
        _ = state.handle(.forwardStepDue(after: seconds(3)))
        _ = state.handle(.videoLanding(generation: 1, at: seconds(4)))
        _ = state.handle(.firstFrameShown(generation: 1, time: seconds(4), host: 2.25))
        #expect(state.seek?.landed == true)
        // Paused at 4.5 s before the next step was asked for: not the keyframe at 4 s.
        #expect(names(state.handle(.setRate(0, host: 2.3125))) == ["flush 2", "output", "wake all"])
        let seek = try #require(state.seek)
        #expect(seek.request.target == seconds(4.5) && seek.request.isExact && seek.isEngineOwn)
        // Play at 1x from there needs no second seek.
        #expect(state.handle(.setRate(1, host: 3)).first.map { if case .flushQueues = $0 { true } else { false } } == false)
    }

    @Test func theEndComesWithTimeEvenWithAStepInFlight() {
        var state = fastForward()
        _ = state.handle(.forwardStepDue(after: seconds(9.5)))
        // Time reaches 10 s (host 3) before the step's keyframe (none follows 9.5 s).
        #expect(names(state.handle(.endDue(generation: 1, host: 3))) == ["end", "ended true"])
        #expect(state.itemTime(atHost: 3.5).seconds == 10)
        #expect(state.seek?.landed == true)
        // Play with sound after the steps resumes from an exact seek.
        var resumed = fastForward()
        _ = resumed.handle(.forwardStepDue(after: seconds(3)))
        _ = resumed.handle(.videoLanding(generation: 1, at: seconds(4)))
        _ = resumed.handle(.firstFrameShown(generation: 1, time: seconds(4), host: 2.25))
        #expect(names(resumed.handle(.setRate(1, host: 2.3))).first == "flush 2")
        #expect(resumed.seek?.request.isExact == true && resumed.playsSound)
    }
}

extension EngineStateHandleTests {
    /// An opened item of 10 s with sound whose keyframes fast forward steps through above `rate`.
    func openedToStepForward(above rate: Double) -> EngineState {
        var state = EngineState()
        let parts = OpenedParts(
            pipeline: pipeline(), duration: seconds(10), forwardEndTime: .invalid, reverseEndTime: .invalid,
            audioStream: 1, forwardStepsAbove: rate)
        _ = state.handle(.opened(parts, host: 0))
        return state
    }

    @Test func aSourceWhoseKeyframesAreUnavailablePlaysEveryFrameWithSoundFromWhereTimeStands() throws {
        var state = openedToStepForward(above: EngineState.keyframeFastForwardRate)
        _ = state.handle(.setRate(8, host: 0))
        _ = state.handle(.forwardStepDue(after: .zero))
        // The step's restart found the I-frame playlist unusable (at 2 s of media).
        #expect(names(state.handle(.keyframesUnavailable(host: 0.25))) == ["flush 2", "output", "wake all"])
        #expect(!state.stepsForward && state.playsSound)
        let seek = try #require(state.seek)
        #expect(seek.request.isExact && seek.request.target == seconds(2) && !seek.isKeyframeStep)
        #expect(state.handle(.keyframesUnavailable(host: 0.3)).isEmpty, "once")
    }
}

extension EngineStateHandleTests {
    @Test func aLocalFileStepsOnlyAboveFourTimes() {
        var state = openedToStepForward(above: EngineState.indexedFastForwardRate)
        _ = state.handle(.setRate(4, host: 0))
        #expect(state.canStepForward && !state.stepsForward && state.playsSound && state.audioTempo == 4)
        _ = state.handle(.setRate(4.5, host: 0))
        #expect(state.stepsForward && !state.playsSound)
        #expect(names(state.handle(.forwardStepDue(after: .zero))) == ["flush 1", "wake all"])
        #expect(state.seek?.isForwardStep == true)
    }
}

extension EngineStateHandleTests {
    @Test func fastPlaybackThatCannotStepDecodesKeyframesOnlyWithSoundAndLeavesThroughAnExactSeek() throws {
        var state = fastForward(rate: 8, keyframes: false)
        #expect(state.decodesKeyframesOnly && state.playsSound && !state.stepsForward)
        #expect(state.audioTempo == 8, "the sound keeps up with time")
        #expect(state.itemTime(atHost: 2.125).seconds == 3)
        #expect(!fastForward(rate: 4, keyframes: false).decodesKeyframesOnly, "4x decodes every frame")
        #expect(!fastForward(rate: 8).decodesKeyframesOnly, "a source that can step steps")
        // Faster still: nothing to redo.
        #expect(names(state.handle(.setRate(16, host: 2.125))) == ["output", "wake 30"])
        #expect(state.seek == nil)
        // Back to every frame: an exact seek of the engine's own where time stands (3 s).
        #expect(names(state.handle(.setRate(1, host: 2.125))) == ["flush 1", "output", "wake all"])
        let seek = try #require(state.seek)
        #expect(seek.isEngineOwn && seek.request.isExact && seek.request.target == seconds(3))
        #expect(!state.decodesKeyframesOnly)
    }

    @Test func anAudioOnlyItemPlaysFastWithItsSoundAndNeverSeeksToLeave() {
        var state = EngineState()
        let parts = OpenedParts(
            pipeline: pipeline(video: false), duration: seconds(10), forwardEndTime: .invalid,
            reverseEndTime: .invalid, audioStream: 1, forwardStepsAbove: nil)
        _ = state.handle(.opened(parts, host: 0))
        _ = state.handle(.setRate(16, host: 0))
        #expect(state.playsSound && state.audioTempo == 16 && !state.decodesKeyframesOnly)
        _ = state.handle(.setRate(1, host: 0.25))
        #expect(state.seek == nil)
    }
}

extension EngineStateHandleTests {
    @Test func aStallWhileShowingKeyframesOnlySeeksNothingAndOneXAfterItDoes() throws {
        var state = fastForward(rate: 8, keyframes: false)
        // Waiting for data: time stands at 3 s, the picture stays the keyframe shown.
        #expect(names(state.handle(.setRate(0, host: 2.125, waiting: true))) == ["output", "wake 30"])
        #expect(state.seek == nil && state.owesPictureSeek)
        // The data came: 8x goes on from the keyframes.
        _ = state.handle(.setRate(8, host: 2.5))
        #expect(state.seek == nil && state.decodesKeyframesOnly)
        _ = state.handle(.setRate(0, host: 2.5, waiting: true))
        // Paused during the wait: the picture where time stands, 3 s.
        #expect(names(state.handle(.setRate(0, host: 2.75))) == ["flush 1", "output", "wake all"])
        #expect(state.seek?.request.target == seconds(3))
        #expect(state.handle(.setRate(0, host: 2.8)).isEmpty)
    }

    @Test func fastPlayEndedDuringASeekSeeksWhereTimeStandsOnceItLandsIfPicturesWereSkipped() throws {
        var state = fastForward(rate: 8, keyframes: false)
        // A seek at 8x to 6 s; its picture is out, then 1x comes before it lands.
        _ = state.handle(.seek(request(6, id: 5)))
        _ = state.handle(.videoLanding(generation: 5, at: seconds(6)))
        #expect(names(state.handle(.setRate(1, host: 3))) == ["output", "wake 30"], "no seek yet: one is in flight")
        // The video thread skipped pictures whose references were never decoded.
        #expect(state.handle(.videoAwaitsKeyframe(generation: 5, host: 3)).isEmpty)
        #expect(state.owesPictureSeekAtLanding)
        // The seek lands: the player hears of it, and the engine seeks where time stands.
        #expect(
            names(state.handle(.firstFrameShown(generation: 5, time: seconds(6), host: 3.1)))
                == ["wake 1", "seek 5 at 6.0", "flush 6", "output", "wake all"])
        let own = try #require(state.seek)
        #expect(own.isEngineOwn && own.request.isExact && own.request.target == seconds(6) && !state.owesPictureSeekAtLanding)
    }

    @Test func aSettledSkipSeeksAtOnceAndStaleOrFastReportsAreIgnored() throws {
        var state = fastForward(rate: 8, keyframes: false)
        // Still fast: keyframes only is what is asked for.
        #expect(state.handle(.videoAwaitsKeyframe(generation: 0, host: 2.125)).isEmpty)
        // Left through its own exact seek (generation 1); a report of generation 0 is stale.
        _ = state.handle(.setRate(1, host: 2.125))
        #expect(state.handle(.videoAwaitsKeyframe(generation: 0, host: 2.2)).isEmpty && state.seek?.generation == 1)
        // Settled at 1x, a skip report seeks where time stands at once.
        _ = state.handle(.firstFrameShown(generation: 1, time: seconds(3), host: 2.3))
        #expect(names(state.handle(.videoAwaitsKeyframe(generation: 1, host: 2.3))) == ["flush 2", "output", "wake all"])
        #expect(state.seek?.request.target == seconds(3))
        // While waiting for data, the seek waits for the next change that is not a wait.
        var waiting = fastForward(rate: 8, keyframes: false)
        _ = waiting.handle(.setRate(0, host: 2.125, waiting: true))
        #expect(waiting.handle(.videoAwaitsKeyframe(generation: 0, host: 2.2)).isEmpty && waiting.owesPictureSeek)
    }

    @Test func aSeekThatLandsDuringAWaitOwesItsPictureSeekToThePlayThatFollows() throws {
        var state = fastForward(rate: 8, keyframes: false)
        _ = state.handle(.seek(request(6, id: 5)))
        _ = state.handle(.videoLanding(generation: 5, at: seconds(6)))
        _ = state.handle(.setRate(1, host: 3))
        _ = state.handle(.videoAwaitsKeyframe(generation: 5, host: 3))
        // The network seek waits for data; it lands meanwhile.
        _ = state.handle(.setRate(0, host: 3, waiting: true))
        #expect(names(state.handle(.firstFrameShown(generation: 5, time: seconds(6), host: 3.1))) == ["wake 1", "seek 5 at 6.0"])
        #expect(state.owesPictureSeek && !state.owesPictureSeekAtLanding)
        // The data came: play at 1x seeks where time stands.
        #expect(names(state.handle(.setRate(1, host: 3.5))) == ["flush 6", "output", "wake all"])
        #expect(state.seek?.request.target == seconds(6))
    }

    @Test func afterAStallOneXSeeksWhereTimeStands() throws {
        var state = fastForward(rate: 8, keyframes: false)
        _ = state.handle(.setRate(0, host: 2.125, waiting: true))
        // Play at 1x (not a wait): the picture where time stands, 3 s.
        #expect(names(state.handle(.setRate(1, host: 3))) == ["flush 1", "output", "wake all"])
        let seek = try #require(state.seek)
        #expect(seek.isEngineOwn && seek.request.target == seconds(3) && !state.owesPictureSeek)
    }

    @Test func untimedPlaybackDecodesEveryFrameAtAnyRate() {
        var state = EngineState()
        state.isUntimed = true
        let parts = OpenedParts(
            pipeline: pipeline(), duration: seconds(10), forwardEndTime: .invalid, reverseEndTime: .invalid,
            audioStream: 1, forwardStepsAbove: nil)
        _ = state.handle(.opened(parts, host: 0))
        _ = state.handle(.setRate(8, host: 0))
        #expect(!state.decodesKeyframesOnly)
        _ = state.handle(.setRate(1, host: 1))
        #expect(state.seek == nil && !state.owesPictureSeek)
    }
}
