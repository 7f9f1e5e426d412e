// Playhead: the engine's seek, landing, time-report and end rules, as pure functions of its
// state: no FFmpeg, no threads, no clock but numbers.
import Foundation
import Testing

@testable import OpenAVFoundation

@Suite struct EngineStateRulesTests {
    private func seconds(_ value: Double) -> CMTime { CMTime(seconds: value, preferredTimescale: 1000) }

    private func request(_ target: Double, exact: Bool) -> SeekRequest {
        SeekRequest(
            id: 1, target: seconds(target), toleranceBefore: exact ? .zero : .positiveInfinity,
            toleranceAfter: exact ? .zero : .positiveInfinity, completion: nil)
    }

    /// A playing item of 10 s, with video and audio unless told otherwise.
    private func playing(video: Bool = true, audio: Bool = true) -> EngineState {
        var control = EngineState()
        control.duration = seconds(10)
        control.hasVideo = video
        control.hasAudio = audio
        control.rate = 1
        control.clock.set(media: .zero, host: 0, generation: 0)
        control.clock.setRate(1, host: 0)
        return control
    }

    @Test func aSeekStartsAGenerationAndTimeIsItsTargetUntilItLands() {
        var control = playing()
        control.endReported = true
        control.eosGeneration = 0
        let generation = control.beginSeek(request(4, exact: true))
        #expect(generation == 1 && control.generation == 1)
        #expect(!control.endReported && control.eosGeneration == -1)
        #expect(control.itemTime(atHost: 2) == seconds(4))
        #expect(!control.isSettled(generation: 1))
        #expect(control.finishSeek(generation: 1, at: seconds(4), host: 2)?.id == 1)
        #expect(control.isSettled(generation: 1))
        // Time runs on from the landing, as of the moment the frame was shown.
        #expect(control.itemTime(atHost: 2.5) == seconds(4.5))
        #expect(control.finishSeek(generation: 1, at: seconds(4), host: 3) == nil, "once")
    }

    @Test func anExactSeekLandsItsAudioAtTheTarget() {
        var control = playing()
        let generation = control.beginSeek(request(3, exact: true))
        let (first, landsHere) = control.audioLanding(generation: generation, chunkStart: seconds(2.6))
        #expect(first == .trim(at: seconds(3)) && landsHere)
        let (second, again) = control.audioLanding(generation: generation, chunkStart: seconds(2.7))
        #expect(second == .trim(at: seconds(3)) && !again)
        let stale = control.audioLanding(generation: generation - 1, chunkStart: .zero).0
        #expect(stale == .drop)
    }

    @Test func aKeyframeSeekOfAVideoItemLandsItsAudioWhereTheFirstFrameIs() {
        var control = playing()
        let generation = control.beginSeek(request(3, exact: false))
        let decision1 = control.audioLanding(generation: generation, chunkStart: seconds(2)).0
        #expect(decision1 == .waitForVideo)
        control.noteVideoLanding(generation: generation, at: seconds(2.5))
        control.noteVideoLanding(generation: generation, at: seconds(2.9))  // the first one stands
        let decision2 = control.audioLanding(generation: generation, chunkStart: seconds(2)).0
        #expect(decision2 == .trim(at: seconds(2.5)))
    }

    @Test func anAudioOnlyKeyframeSeekLandsOnItsFirstChunk() {
        var control = playing(video: false)
        let generation = control.beginSeek(request(3, exact: false))
        let (decision, landsHere) = control.audioLanding(generation: generation, chunkStart: seconds(2.98))
        #expect(decision == .trim(at: seconds(2.98)) && landsHere)
        #expect(
            control.landingWithoutFrame(generation: generation, hasVideoStream: false, hasAudioStream: true, videoEnded: false)
                == seconds(2.98))
        _ = control.finishSeek(generation: generation, at: seconds(2.98), host: 1)
        let decision3 = control.audioLanding(generation: generation, chunkStart: seconds(3.5)).0
        #expect(decision3 == .trim(at: seconds(2.98)))
    }

    @Test func withoutASeekAudioIsWrittenWhole() {
        var control = playing()
        let decision4 = control.audioLanding(generation: 0, chunkStart: seconds(1)).0
        #expect(decision4 == .writeWhole)
        control.stopped = true
        let decision5 = control.audioLanding(generation: 0, chunkStart: seconds(1)).0
        #expect(decision5 == .drop)
    }

    @Test func aSeekPastTheEndLandsOnItsTargetOnceTheStreamsEnd() {
        var control = playing()
        let generation = control.beginSeek(request(12, exact: true))
        let land = { (control: EngineState, ended: Bool) in
            control.landingWithoutFrame(generation: generation, hasVideoStream: true, hasAudioStream: true, videoEnded: ended)
        }
        #expect(land(control, true) == nil, "the video end of this generation is not marked yet")
        control.eosGeneration = generation
        #expect(land(control, false) == nil, "nor has the frame queue reached it")
        #expect(land(control, true) == seconds(12))
    }

    @Test func timeGoesUpOnlyForTheCurrentSettledGenerationWithinTheItem() {
        var control = playing()
        let result1 = control.timeReport(seconds(11), generation: 0)
        #expect(result1 == seconds(10), "kept within the item")
        let result2 = control.timeReport(seconds(1), generation: 1)
        #expect(result2 == nil, "stale")
        let generation = control.beginSeek(request(5, exact: true))
        let result3 = control.timeReport(seconds(5), generation: generation)
        #expect(result3 == nil, "a seek is in flight")
        _ = control.finishSeek(generation: generation, at: seconds(5), host: 1)
        let result4 = control.timeReport(seconds(5.1), generation: generation)
        #expect(result4 == seconds(5.1))
        #expect(control.statistics.timeReports == 2)
    }

    @Test func theEndIsReachedOncePlayingAndMovesThePlayheadThere() {
        var control = playing()
        control.rate = 0
        let result5 = control.reachEnd(generation: 0, host: 9)
        #expect(!result5, "never while paused")
        control.rate = 1
        let result6 = control.reachEnd(generation: 0, host: 10)
        #expect(result6)
        #expect(control.lastPresented == seconds(10))
        #expect(control.itemTime(atHost: 10) == seconds(10))
        let result7 = control.reachEnd(generation: 0, host: 10.1)
        #expect(!result7, "once")
        let generation = control.beginSeek(request(2, exact: true))
        let result8 = control.reachEnd(generation: generation, host: 11)
        #expect(!result8, "not while the seek is in flight")
        _ = control.finishSeek(generation: generation, at: seconds(2), host: 11)
        let result9 = control.reachEnd(generation: generation, host: 19)
        #expect(result9, "again after a seek")
    }

    @Test func theForwardEndTimeIsTheEnd() {
        var control = playing()
        control.forwardEndTime = seconds(6)
        let result10 = control.reachEnd(generation: 0, host: 6)
        #expect(result10)
        #expect(control.lastPresented == seconds(6))
    }

    @Test func openingTimeStandsWhereTheSoundBeginsWhenItLeadsThePictureWhicheverComesFirst() {
        /// A paused item just opened, time at zero.
        func opened() -> EngineState {
            var control = EngineState()
            control.duration = seconds(10)
            control.hasVideo = true
            control.hasAudio = true
            control.clock.set(media: .zero, host: 0, generation: 0)
            return control
        }
        // The picture first (at 21 ms), then the sound (at 0): time goes back to the sound.
        var pictureFirst = opened()
        _ = pictureFirst.finishSeek(generation: 0, at: seconds(0.021), host: 1)
        #expect(pictureFirst.itemTime(atHost: 1) == seconds(0.021))
        pictureFirst.noteOpeningAudio(generation: 0, start: seconds(-0.002))
        #expect(pictureFirst.itemTime(atHost: 2) == .zero, "from zero on: nothing plays before the start")
        // The sound first: the picture does not move time past it.
        var soundFirst = opened()
        soundFirst.noteOpeningAudio(generation: 0, start: seconds(0.5))
        soundFirst.noteOpeningAudio(generation: 0, start: seconds(0.52))
        _ = soundFirst.finishSeek(generation: 0, at: seconds(0.6), host: 1)
        #expect(soundFirst.itemTime(atHost: 1) == seconds(0.5))
        // A picture before the sound stays where it is.
        var laterSound = opened()
        _ = laterSound.finishSeek(generation: 0, at: seconds(0.2), host: 1)
        laterSound.noteOpeningAudio(generation: 0, start: seconds(0.3))
        #expect(laterSound.itemTime(atHost: 1) == seconds(0.2))
        // Once time has run (or after a seek), the sound no longer moves it.
        var played = opened()
        _ = played.handle(.setRate(1, host: 1))
        _ = played.handle(.setRate(0, host: 2))
        let stood = played.itemTime(atHost: 3)
        played.noteOpeningAudio(generation: 0, start: .zero)
        #expect(played.itemTime(atHost: 3) == stood && stood > .zero, "\(stood.seconds)")
    }
}
