// Playhead: transport rules of the player, checked without media.
import Testing

@testable import OpenAVFoundation

@Suite struct PlaybackStateMachineTests {
    typealias Machine = PlaybackStateMachine
    static let ready = Machine.Buffer(isEmpty: false, isLikelyToKeepUp: true, isFull: false)
    static let thin = Machine.Buffer(isEmpty: false, isLikelyToKeepUp: false, isFull: false)
    static let empty = Machine.Buffer(isEmpty: true, isLikelyToKeepUp: false, isFull: false)

    func machine(_ events: Machine.Event...) -> (Machine, [Machine.Effect]) {
        var machine = Machine()
        var effects: [Machine.Effect] = []
        for event in events { effects += machine.handle(event) }
        return (machine, effects)
    }

    @Test func pausedByDefault() async {
        let (m, _) = machine()
        #expect(m.timeControl == .paused)
        #expect(m.waitReason == nil)
        #expect(m.rate == 0)
    }

    @Test func playWithoutItemWaitsForAnItem() async {
        let (m, _) = machine(.setRate(1, immediately: false))
        #expect(m.timeControl == .waiting)
        #expect(m.waitReason == .noItemToPlay)
        #expect(m.rate == 1)
    }

    @Test func playBeforeReadyEvaluatesThenPlays() async {
        var (m, _) = machine(.item(.loading), .setRate(1, immediately: false))
        #expect(m.timeControl == .waiting)
        #expect(m.waitReason == .evaluatingBufferingRate)
        _ = m.handle(.item(.ready))
        #expect(m.timeControl == .waiting)
        _ = m.handle(.buffer(Self.ready))
        #expect(m.timeControl == .playing)
        #expect(m.waitReason == nil)
    }

    @Test func stallWhilePlayingPostsStalledAndWaits() async {
        var (m, _) = machine(.item(.ready), .buffer(Self.ready), .setRate(1, immediately: false))
        #expect(m.isAdvancing)
        let effects = m.handle(.buffer(Self.empty))
        #expect(effects == [.postPlaybackStalled])
        #expect(m.timeControl == .waiting)
        #expect(m.waitReason == .toMinimizeStalls)
        #expect(m.rate == 1)
        _ = m.handle(.buffer(Self.thin))
        #expect(m.timeControl == .waiting)
        #expect(m.waitReason == .toMinimizeStalls)
        _ = m.handle(.buffer(Self.ready))
        #expect(m.timeControl == .playing)
    }

    @Test func playingBackwardEndsAtTheStartAsForwardPlayEndsAtTheEnd() async {
        var (m, _) = machine(.item(.ready), .buffer(Self.ready), .setRate(-1, immediately: false))
        #expect(m.timeControl == .playing && m.rate == -1)
        // A forward end report means nothing backward; the start does.
        #expect(m.handle(.reachedReverseEnd) == [.postDidPlayToEnd])
        #expect(m.rate == 0 && m.timeControl == .paused)
        // Backward again from the start reaches it again at once; forward leaves it.
        #expect(m.handle(.setRate(-2, immediately: false)) == [.postDidPlayToEnd])
        #expect(m.rate == 0)
        #expect(m.handle(.setRate(1, immediately: false)).isEmpty)
        #expect(m.timeControl == .playing)
        // At the forward end, backward play leaves the end behind.
        _ = m.handle(.reachedEnd)
        #expect(m.rate == 0)
        #expect(m.handle(.setRate(-1, immediately: false)).isEmpty)
        #expect(m.timeControl == .playing && m.rate == -1)
        #expect(m.handle(.setRate(1, immediately: false)).isEmpty, "no longer at the end")
        // Backward play does not wait for the forward buffer, even with automatic waiting.
        var (thin, _) = machine(.item(.ready), .buffer(Self.empty), .setRate(-1, immediately: false))
        #expect(thin.timeControl == .playing && thin.waitReason == nil)
        _ = thin.handle(.buffer(Self.thin))
        #expect(thin.timeControl == .playing)
    }

    @Test func stallWithoutAutomaticWaitingPausesAndZeroesRate() async {
        var (m, _) = machine(
            .setAutomaticallyWaits(false), .item(.ready), .buffer(Self.thin),
            .setRate(1, immediately: false))
        #expect(m.timeControl == .playing)
        let effects = m.handle(.buffer(Self.empty))
        #expect(effects == [.postPlaybackStalled])
        #expect(m.timeControl == .paused)
        #expect(m.rate == 0)
    }

    @Test func playImmediatelyIgnoresThePrediction() async {
        var (m, _) = machine(.item(.ready), .buffer(Self.thin))
        _ = m.handle(.setRate(1, immediately: true))
        #expect(m.timeControl == .playing)
        let effects = m.handle(.buffer(Self.empty))
        #expect(effects.isEmpty)
        #expect(m.timeControl == .waiting)
    }

    @Test func endWithPauseActionZeroesRate() async {
        var (m, _) = machine(.item(.ready), .buffer(Self.ready), .setRate(1, immediately: false))
        let effects = m.handle(.reachedEnd)
        #expect(effects == [.postDidPlayToEnd])
        #expect(m.rate == 0)
        #expect(m.timeControl == .paused)
        // Playing again without seeking hits the end at once and stays paused.
        _ = m.handle(.setRate(1, immediately: false))
        #expect(m.timeControl == .paused)
        _ = m.handle(.timeJumped)
        _ = m.handle(.setRate(1, immediately: false))
        #expect(m.timeControl == .playing)
    }

    @Test func endWithNoneActionKeepsPlaying() async {
        var (m, _) = machine(
            .setActionAtItemEnd(.none), .item(.ready), .buffer(Self.ready),
            .setRate(1, immediately: false))
        let effects = m.handle(.reachedEnd)
        #expect(effects == [.postDidPlayToEnd])
        #expect(m.rate == 1)
        #expect(m.timeControl == .playing)
        // Switching to .pause afterwards applies the action at once.
        _ = m.handle(.setActionAtItemEnd(.pause))
        #expect(m.rate == 0)
        #expect(m.timeControl == .paused)
    }

    @Test func playingAgainAtTheEndReachesItAgainUntilASeek() async {
        var (m, _) = machine(.item(.ready), .buffer(Self.ready), .setRate(1, immediately: false))
        _ = m.handle(.reachedEnd)
        #expect(m.rate == 0)
        #expect(m.handle(.setRate(1, immediately: false)) == [.postDidPlayToEnd])
        #expect(m.rate == 0)
        #expect(m.timeControl == .paused)
        _ = m.handle(.timeJumped)
        #expect(m.handle(.setRate(1, immediately: false)).isEmpty)
        #expect(m.timeControl == .playing)
    }

    @Test func endIsReportedOnce() async {
        var (m, _) = machine(
            .setActionAtItemEnd(.none), .item(.ready), .buffer(Self.ready),
            .setRate(1, immediately: false))
        #expect(m.handle(.reachedEnd) == [.postDidPlayToEnd])
        #expect(m.handle(.reachedEnd).isEmpty)
    }

    @Test func endWithAdvanceAsksForTheNextItem() async {
        var (m, _) = machine(
            .setActionAtItemEnd(.advance), .item(.ready), .buffer(Self.ready),
            .setRate(1, immediately: false))
        #expect(m.handle(.reachedEnd) == [.postDidPlayToEnd, .advanceToNextItem])
    }

    @Test func failedItemPauses() async {
        var (m, _) = machine(.item(.loading), .setRate(1, immediately: false))
        _ = m.handle(.item(.failed))
        #expect(m.timeControl == .paused)
        #expect(m.rate == 0)
    }

    @Test func pauseClearsTheWaitingReason() async {
        var (m, _) = machine(.item(.loading), .setRate(1, immediately: false))
        _ = m.handle(.setRate(0, immediately: false))
        #expect(m.timeControl == .paused)
        #expect(m.waitReason == nil)
    }

    @Test func fullBufferStartsPlaybackEvenWithoutPrediction() async {
        var (m, _) = machine(.item(.ready), .setRate(1, immediately: false))
        _ = m.handle(.buffer(.init(isEmpty: false, isLikelyToKeepUp: false, isFull: true)))
        #expect(m.timeControl == .playing)
    }

    @Test func aBufferEmptiedByASeekIsNoStallEvenWithoutAutomaticWaiting() async {
        // Playing, then seek + play at once (a wrapper looping): reading restarts at the target,
        // so the buffer reads empty for a moment. That is the seek's doing, not a stall.
        var (m, _) = machine(
            .setAutomaticallyWaits(false), .item(.ready), .buffer(Self.ready),
            .setRate(1, immediately: false))
        #expect(m.timeControl == .playing)
        _ = m.handle(.timeJumped)
        #expect(m.handle(.setRate(1, immediately: false)).isEmpty)
        #expect(m.handle(.buffer(Self.empty)).isEmpty, "no stall notification")
        #expect(m.rate == 1)
        #expect(m.timeControl == .playing, "playing through the seek")
        _ = m.handle(.buffer(Self.thin))
        #expect(m.timeControl == .playing)
        _ = m.handle(.seekFinished)
        #expect(m.timeControl == .playing)
        // Once landed, running dry is a stall again: without automatic waiting it pauses.
        #expect(m.handle(.buffer(Self.empty)) == [.postPlaybackStalled])
        #expect(m.rate == 0)
        #expect(m.timeControl == .paused)
    }

    @Test func withAutomaticWaitingASeeksEmptyBufferIsNoStallEither() async {
        var (m, _) = machine(.item(.ready), .buffer(Self.ready), .setRate(1, immediately: false))
        _ = m.handle(.timeJumped)
        #expect(m.handle(.buffer(Self.empty)).isEmpty)
        #expect(m.timeControl == .playing)
        _ = m.handle(.buffer(Self.ready))
        _ = m.handle(.seekFinished)
        #expect(m.timeControl == .playing)
    }

    @Test func landingOnAnEmptyBufferWaitsAsAtAStartWithoutAStall() async {
        // A network seek outside the buffer: the seek lands before data for playing on arrives.
        var (m, _) = machine(.item(.ready), .buffer(Self.ready), .setRate(1, immediately: false))
        _ = m.handle(.timeJumped)
        _ = m.handle(.buffer(Self.empty))
        #expect(m.handle(.seekFinished).isEmpty, "no stall notification")
        #expect(m.timeControl == .waiting)
        #expect(m.waitReason == .evaluatingBufferingRate)
        #expect(m.rate == 1)
        _ = m.handle(.buffer(Self.ready))
        #expect(m.timeControl == .playing)
    }

    @Test func pausedThenSeekingThenPlayingWaitsForData() async {
        var (m, _) = machine(.item(.ready), .buffer(Self.ready))
        _ = m.handle(.timeJumped)
        _ = m.handle(.buffer(Self.empty))
        _ = m.handle(.setRate(1, immediately: false))
        #expect(m.timeControl == .waiting)
        _ = m.handle(.buffer(Self.ready))
        #expect(m.timeControl == .playing)
    }

    @Test func aNewItemEndsTheSeek() async {
        var (m, _) = machine(
            .setAutomaticallyWaits(false), .item(.ready), .buffer(Self.ready),
            .setRate(1, immediately: false), .timeJumped)
        _ = m.handle(.item(.loading))
        _ = m.handle(.item(.ready))
        _ = m.handle(.buffer(Self.ready))
        #expect(m.timeControl == .playing)
        #expect(m.handle(.buffer(Self.empty)) == [.postPlaybackStalled])
    }
}
