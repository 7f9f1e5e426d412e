// Playhead: the engine's rules for playing backward (I-frame stepping): steps are keyframe
// seeks of the engine's own that never re-anchor the running clock nor reach the player, the
// reverse end is reached once, and forward play after steps resumes from an exact seek.
@testable import FFmpegBridge
import Foundation
import Testing

@testable import OpenAVFoundation

extension EngineStateHandleTests {
    /// Playing backward at rate -1 from item time 6 s, which stood there at host time 10.
    private func playingBackward() -> EngineState {
        var state = playing()
        _ = state.handle(.setRate(0, host: 6))
        _ = state.handle(.setRate(-1, host: 10))
        return state
    }

    @Test func aReverseStepIsAKeyframeSeekOfItsOwnThatKeepsTheClockRunningBackward() throws {
        var state = playingBackward()
        #expect(state.itemTime(atHost: 11).seconds == 5)
        // Time went below the picture at 6 s: the keyframe at or before 5 s comes next.
        #expect(names(state.handle(.reverseStepDue(to: seconds(5)))) == ["flush 1", "wake all"])
        let step = try #require(state.seek)
        #expect(step.isReverseStep && step.isEngineOwn)
        #expect(step.request.target == seconds(5) && step.request.toleranceAfter == .zero)
        #expect(step.request.toleranceBefore == .positiveInfinity)
        // While it is on its way time keeps running backward (not the target), and the
        // queues it emptied are no stall: no buffer report goes up.
        #expect(state.itemTime(atHost: 11.5).seconds == 4.5)
        #expect(names(state.handle(.bufferCheck(endOfStream: false, force: true, host: 11.5))) == [])
        // A second step waits for the first to land.
        #expect(state.handle(.reverseStepDue(to: seconds(4.4))).isEmpty)
        // The keyframe at 4 s shows: the step lands without a word to the player, and the
        // clock is not re-anchored at the keyframe.
        _ = state.handle(.videoLanding(generation: 1, at: seconds(4)))
        #expect(names(state.handle(.firstFrameShown(generation: 1, time: seconds(4), host: 11.6))) == ["wake 1"])
        #expect(state.itemTime(atHost: 12).seconds == 4)
        #expect(state.itemTime(atHost: 12.5).seconds == 3.5)
        // Backward, the forward buffer's flags mean nothing: none go up (no stall).
        #expect(names(state.handle(.bufferCheck(endOfStream: false, force: true, host: 12.5))) == [])
    }

    @Test func noStepWhileASeekOfThePlayersIsInFlightOrForward() {
        var state = playingBackward()
        _ = state.handle(.seek(request(8, id: 5)))
        #expect(state.handle(.reverseStepDue(to: seconds(7))).isEmpty, "the player's seek comes first")
        _ = state.handle(.firstFrameShown(generation: 5, time: seconds(8), host: 12))
        // The player's seek landed and anchored the clock: backward from 8 s.
        #expect(state.itemTime(atHost: 13).seconds == 7)
        var forward = playing()
        #expect(forward.handle(.reverseStepDue(to: seconds(1))).isEmpty, "forward play takes no steps")
    }

    @Test func theReverseEndIsReachedOnceAndTimeStandsThere() {
        var state = playingBackward()
        #expect(state.handle(.reverseStepDue(to: .zero)).isEmpty, "no step at or below the end")
        #expect(names(state.handle(.reverseEndDue(host: 16))) == ["reverse end"])
        #expect(state.itemTime(atHost: 17) == .zero)
        #expect(state.handle(.reverseEndDue(host: 17)).isEmpty, "once")
        // Pausing there and playing backward again reaches it again only after a seek.
        _ = state.handle(.setRate(0, host: 18))
        #expect(state.itemTime(atHost: 19) == .zero)
    }

    @Test func aReverseEndTimeStopsBackwardPlayThere() {
        var state = playingBackward()
        state.reverseEndTime = seconds(3)
        #expect(state.handle(.reverseStepDue(to: seconds(2.5))).isEmpty, "no step below the reverse end")
        #expect(names(state.handle(.reverseEndDue(host: 13))) == ["reverse end"])
        #expect(state.itemTime(atHost: 14).seconds == 3)
    }

    @Test func forwardPlayAfterStepsResumesFromAnExactSeekOfItsOwnWhereTimeStands() throws {
        var state = playingBackward()
        _ = state.handle(.reverseStepDue(to: seconds(5)))
        _ = state.handle(.firstFrameShown(generation: 1, time: seconds(4), host: 11))
        // Paused at 4.5 s, then forward: the queues hold what follows the keyframe at 4 s.
        _ = state.handle(.setRate(0, host: 11.5))
        #expect(names(state.handle(.setRate(1, host: 12))) == ["flush 2", "output", "wake all"])
        let resume = try #require(state.seek)
        #expect(resume.isEngineOwn && !resume.isReverseStep && resume.request.isExact)
        #expect(resume.request.target.seconds == 4.5)
        // It lands like any seek (the clock restarts there) but tells the player nothing.
        #expect(names(state.handle(.firstFrameShown(generation: 2, time: seconds(4.5), host: 12.1))) == ["wake 1"])
        #expect(state.itemTime(atHost: 13.1).seconds == 5.5)
        // Forward play after forward play needs no such seek.
        #expect(names(state.handle(.setRate(2, host: 14))).contains("flush 3") == false)
    }

    @Test func backwardTimeReportsFollowTheObserversWithoutTheForwardThreshold() {
        var state = playingBackward()
        _ = state.handle(.observersNeedTime(at: seconds(7)))
        // 5 s is below the next forward crossing (7 s), yet due while playing backward.
        #expect(names(state.handle(.timeDue(seconds(5), generation: 0))) == ["time 5.0 of 0", "reported true"])
        _ = state.handle(.observersNeedTime(at: .positiveInfinity))
        #expect(names(state.handle(.timeDue(seconds(4.9), generation: 0))) == ["reported false"])
    }
}
