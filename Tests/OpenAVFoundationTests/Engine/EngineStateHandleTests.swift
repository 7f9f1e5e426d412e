// Playhead: the engine's one decision point, event by event: which queues flush, which
// threads wake, what goes up to the player and when, with no FFmpeg, no threads and no clock
// but numbers.
@testable import FFmpegBridge
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct EngineStateHandleTests {
    func seconds(_ value: Double) -> CMTime { CMTime(seconds: value, preferredTimescale: 1000) }

    func request(_ target: Double, exact: Bool = true, id: Int = 1) -> SeekRequest {
        SeekRequest(
            id: id, target: seconds(target), toleranceBefore: exact ? .zero : .positiveInfinity,
            toleranceAfter: exact ? .zero : .positiveInfinity, completion: nil)
    }

    /// Queues without media behind them: 10 s with a video stream (0) and an audio stream (1).
    func pipeline(video: Bool = true) -> Pipeline {
        let description = MediaDescription(
            formatName: "test", formatLongName: "test", duration: seconds(10), startTime: .zero, bitRate: nil,
            streams: [], tags: [], artwork: [], probeScore: 100, durationIsEstimated: false)
        return Pipeline(
            description: description, videoStream: video ? 0 : nil, audioStream: 1, ring: nil, audioOutput: nil,
            forwardBuffer: 2)
    }

    /// An opened item of 10 s, playing from host time 0.
    func playing(network: Bool = false, video: Bool = true) -> EngineState {
        var state = EngineState()
        state.isNetwork = network
        let parts = OpenedParts(pipeline: pipeline(video: video), duration: seconds(10), forwardEndTime: .invalid, reverseEndTime: .invalid, audioStream: 1)
        _ = state.handle(.opened(parts, host: 0))
        _ = state.handle(.setRate(1, host: 0))
        return state
    }

    /// A short name for each action, to compare sequences.
    func names(_ actions: [EngineAction]) -> [String] {
        actions.map { action in
            switch action {
            case .wake(let threads): threads == .all ? "wake all" : "wake \(threads.rawValue)"
            case .flushQueues(let generation): "flush \(generation)"
            case .kickStalledRead: "kick"
            case .abort: "abort"
            case .applyAudioOutput: "output"
            case .setVolume(let gain): "volume \(gain)"
            case .applyAudioDelay(let delay): "delay \(delay)"
            case .gateAudio(let start): "gate \(start)"
            case .clearVideo: "clear"
            case .loadLegible(_, let version): "legible \(version)"
            case .endPacketQueues: "end packets"
            case .endFrameQueue: "end frames"
            case .report(.seekFinished(let id, let time)): "seek \(id) at \(time.seconds)"
            case .report(.timeAdvanced(let time, let generation)): "time \(time.seconds) of \(generation)"
            case .report(.reachedEnd): "end"
            case .report(.reachedReverseEnd): "reverse end"
            case .report(.failed(_, let duringPlayback)): "failed \(duringPlayback)"
            case .report(.buffer(let report)): "buffer keepUp \(report.flags.isLikelyToKeepUp)"
            case .report: "report"
            case .reply(.ended(let now)): "ended \(now)"
            case .reply(.reported(let sent)): "reported \(sent)"
            case .reply(.audio): "audio"
            case .reply(.demuxOrders(let orders)): "orders seek \(orders.seek?.generation ?? -1)"
            }
        }
    }

    @Test func aSeekFlushesEveryQueueFirstThenWakesEveryThread() {
        var state = playing()
        #expect(names(state.handle(.seek(request(4)))) == ["flush 1", "wake all"])
        #expect(state.generation == 1 && state.itemTime(atHost: 3) == seconds(4))
    }

    @Test func aSeeksIdIsTheEnginesGeneration() {
        var state = playing()
        #expect(names(state.handle(.seek(request(42, id: 42)))) == ["flush 42", "wake all"])
        #expect(state.generation == 42 && state.seek?.request.id == 42)
        _ = state.handle(.seek(request(3, id: 5)))
        #expect(state.generation == 43, "never backwards")
    }

    @Test func aNetworkSeekCutsAStalledReadOnlyOnceReadingStartedAndUntilTheDemuxThreadHasIt() {
        var state = playing(network: true)
        #expect(!names(state.handle(.seek(request(2)))).contains("kick"), "never during the open")
        _ = state.handle(.readingStarted)
        #expect(names(state.handle(.seek(request(3)))).contains("kick"))
        #expect(names(state.handle(.demuxAsks(pickedUpTo: 0))) == ["orders seek 2"])
        #expect(names(state.handle(.demuxAsks(pickedUpTo: 2))) == ["orders seek -1"], "handed over once")
        var file = playing()
        _ = file.handle(.readingStarted)
        #expect(!names(file.handle(.seek(request(3)))).contains("kick"), "a file read never stalls")
    }

    @Test func theFirstFrameOfTheSeekLandsItOnceAndWakesTheReadAhead() {
        var state = playing()
        _ = state.handle(.seek(request(4, id: 1)))
        #expect(names(state.handle(.firstFrameShown(generation: 0, time: seconds(1), host: 1))) == [], "stale")
        #expect(names(state.handle(.firstFrameShown(generation: 1, time: seconds(4), host: 1))) == ["wake 1", "seek 1 at 4.0"])
        #expect(names(state.handle(.firstFrameShown(generation: 1, time: seconds(4), host: 2))) == [])
        #expect(state.itemTime(atHost: 1.5) == seconds(4.5))
    }

    @Test func ticksAreSentOnlyOnceObserversNeedThemAndNeverStaleOrMidSeek() {
        var state = playing()
        #expect(names(state.handle(.timeDue(seconds(1), generation: 0))) == ["reported false"], "no observer")
        _ = state.handle(.observersNeedTime(at: seconds(2)))
        #expect(names(state.handle(.timeDue(seconds(1.5), generation: 0))) == ["reported false"], "not yet")
        #expect(names(state.handle(.timeDue(seconds(2), generation: 0))) == ["time 2.0 of 0", "reported true"])
        _ = state.handle(.seek(request(5)))
        #expect(names(state.handle(.timeDue(seconds(5), generation: 1))) == ["reported false"], "mid-seek")
        #expect(names(state.handle(.timeDue(seconds(2.1), generation: 0))) == ["reported false"], "stale")
    }

    @Test func theEndIsReportedOnceAndAReadFailureLeftBehindFailsTheItemThere() {
        var state = playing()
        #expect(names(state.handle(.endDue(generation: 0, host: 10))) == ["end", "ended true"])
        #expect(names(state.handle(.endDue(generation: 0, host: 10.5))) == ["ended false"])
        var network = playing(network: true)
        _ = network.handle(.readFailed(.io(detail: "connection reset")))
        #expect(names(network.handle(.endDue(generation: 0, host: 4))) == ["failed true", "ended true"])
        // Time stands where the data ran out, not at the end (10 s) it never reached.
        #expect(network.itemTime(atHost: 6) == seconds(4))
        var file = playing()
        _ = file.handle(.readFailed(nil))
        #expect(names(file.handle(.endDue(generation: 0, host: 4))) == ["end", "ended true"])
    }

    @Test func theForwardEndIsReachedWhenPlaybackGetsThere() {
        var state = playing()
        state.forwardEndTime = seconds(6)
        #expect(names(state.handle(.playedTo(seconds(5.9), host: 5.9))) == ["ended false"])
        #expect(names(state.handle(.playedTo(seconds(6), host: 6))) == ["end", "ended true"])
        #expect(state.itemTime(atHost: 6) == seconds(6))
    }

    @Test func endsOfAnOldGenerationNeverReachTheQueuesOfANewOne() {
        var state = playing()
        _ = state.handle(.readingStarted)
        _ = state.handle(.seek(request(3)))
        #expect(names(state.handle(.packetsEnded(generation: 0, host: 1))) == [])
        #expect(names(state.handle(.videoEnded(generation: 0))) == ["wake 8"])
        #expect(state.eosGeneration == -1)
        #expect(names(state.handle(.packetsEnded(generation: 1, host: 1))) == ["end packets", "buffer keepUp true"])
        #expect(names(state.handle(.videoEnded(generation: 1))) == ["end frames", "wake 8"])
        #expect(state.eosGeneration == 1)
    }

    @Test func anAudioOnlyKeyframeSeekLandsWhereItsAudioStarts() {
        var state = playing(video: false)
        _ = state.handle(.seek(request(3, exact: false, id: 1)))
        let actions = state.handle(.audioChunk(generation: 1, start: seconds(2.98)))
        #expect(names(actions).first == "wake 8", "the presentation thread finishes the seek")
        guard case .reply(.audio(let decision)) = actions.last else {
            Issue.record("no answer for the audio thread")
            return
        }
        #expect(decision == .trim(at: seconds(2.98)))
        #expect(names(state.handle(.noFrameWaiting(generation: 1, host: 2, videoEnded: false))) == ["wake 1", "seek 1 at 2.98"])
    }

    @Test func afterStopNothingIsReportedAndAHeldEngineKeepsThePicture() {
        var state = playing()
        #expect(names(state.handle(.stop(clearsVideo: true))) == ["abort", "wake all", "output", "clear"])
        #expect(names(state.handle(.endDue(generation: 0, host: 10))) == ["ended false"])
        var held = playing()
        _ = held.handle(.setHeld(true))
        #expect(names(held.handle(.stop(clearsVideo: true))) == ["abort", "wake all", "output"])
        var opening = EngineState()
        _ = opening.handle(.stop(clearsVideo: false))
        let parts = OpenedParts(pipeline: pipeline(), duration: seconds(10), forwardEndTime: .invalid, reverseEndTime: .invalid, audioStream: 1)
        #expect(names(opening.handle(.opened(parts, host: 0))) == ["abort", "output"], "opened after a stop: released")
    }

    @Test func theRateRestartsTheClockWhereTimeIsAndWakesTheThreadsOnlyWhenItChanges() {
        var state = playing()
        #expect(names(state.handle(.setRate(1, host: 1))) == [])
        #expect(names(state.handle(.setRate(0, host: 2))) == ["output", "wake 30"])
        #expect(state.itemTime(atHost: 5) == seconds(2))
        _ = state.handle(.setRate(2, host: 5))
        #expect(state.itemTime(atHost: 6) == seconds(4))
    }

    @Test func aScheduledStartHoldsTimeUntilItsHostTimeAndGatesTheSound() {
        var state = playing()
        _ = state.handle(.setRate(0, host: 1))
        #expect(names(state.handle(.scheduleStart(at: 3, now: 1))) == ["gate 3.0", "wake 8"])
        _ = state.handle(.seek(request(5)))
        _ = state.handle(.setRate(1, host: 1.1))
        // The landing frame shows at once; time stands at it until the start, then runs.
        _ = state.handle(.firstFrameShown(generation: 1, time: seconds(5), host: 1.2))
        #expect(state.itemTime(atHost: 2) == seconds(5))
        #expect(state.itemTime(atHost: 3) == seconds(5))
        #expect(state.itemTime(atHost: 3.5) == seconds(5.5))
        #expect(names(state.handle(.scheduledStartReached(host: 2.9))) == [], "not yet")
        #expect(names(state.handle(.scheduledStartReached(host: 3))) == ["wake 30"])
        #expect(state.scheduledStart == nil)
        #expect(names(state.handle(.scheduleStart(at: 3, now: 4))).contains("wake 8") && state.scheduledStart == nil, "a past time starts now")
    }

    @Test func selectionChangesWakeWhoCarriesThemOut() {
        var state = playing()
        #expect(names(state.handle(.selectAudio(1))) == [], "already playing")
        #expect(names(state.handle(.selectAudio(2))) == ["wake 5"])
        #expect(names(state.handle(.selectLegible(nil))) == ["legible 1", "wake 1"])
        #expect(names(state.handle(.selectLegible(nil))) == ["legible 2", "wake 1"])
    }
}
