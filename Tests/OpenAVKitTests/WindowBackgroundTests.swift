// Playhead: tests for WindowBackground: a minimised window pauses and resumes playback by the
// player's audiovisualBackgroundPlaybackPolicy and tells its delegate, in order.
import Foundation
import OpenAVFoundation
import PlayheadTestSupport
import Testing

@testable import OpenAVKit

@MainActor
@Suite struct WindowBackgroundTests {
    /// A window's background handling for a playing player, and the events it sent.
    private func rig(
        _ policy: AVPlayerAudiovisualBackgroundPlaybackPolicy, hasVideo: Bool, hold: (any DisplaySleepHold)? = nil
    ) -> (WindowBackground, AVPlayer, Locked<[PlayerWindowEvent]>) {
        let player = AVPlayer()
        player.audiovisualBackgroundPlaybackPolicy = policy
        player.play()
        let sent = Locked<[PlayerWindowEvent]>([])
        let events = PlayerWindowEvents(player: player) { event in sent.withLock { $0.append(event) } }
        return (WindowBackground(player: player, events: events, hold: hold) { hasVideo }, player, sent)
    }

    @Test func pausesGoesAwayAndComesBackPlaying() {
        let (background, player, sent) = rig(.pauses, hasVideo: true)
        background.enter()
        #expect(player.rate == 0, "paused in the background")
        background.enter()  // a second minimise event changes nothing
        background.leave()
        #expect(player.rate == 1, "resumed on return")
        #expect(sent.withLock { $0 } == [.backgroundChanged(true), .backgroundChanged(false)])
    }

    @Test func continuesIfPossiblePlaysOn() {
        let (background, player, _) = rig(.continuesIfPossible, hasVideo: true)
        background.enter()
        #expect(player.rate == 1)
        background.leave()
        #expect(player.rate == 1)
    }

    @Test func automaticPausesVideoButNotSoundAlone() {
        let (video, videoPlayer, _) = rig(.automatic, hasVideo: true)
        video.enter()
        #expect(videoPlayer.rate == 0)
        let (sound, soundPlayer, _) = rig(.automatic, hasVideo: false)
        sound.enter()
        #expect(soundPlayer.rate == 1)
    }

    @Test func aPauseTheUserMadeIsNotUndoneOnReturn() {
        let (background, player, _) = rig(.pauses, hasVideo: true)
        player.pause()
        background.enter()
        background.leave()
        #expect(player.rate == 0, "the window resumes only what it paused")
    }

    @Test func theDisplayIsNotHeldAwakeWithoutPlayingVideo() {
        let (background, player, _) = rig(.pauses, hasVideo: true)
        player.pause()
        background.updateDisplaySleep()
        #expect(!background.isKeepingDisplayAwake)
        background.release()
    }

    @Test func aHoldHearsOnlyChangesAndIsReleasedOnClose() {
        let hold = RecordingHold()
        let (background, player, _) = rig(.pauses, hasVideo: true, hold: hold)
        player.pause()
        background.updateDisplaySleep()
        background.updateDisplaySleep()  // unchanged: not told again
        #expect(hold.calls.withLock { $0 } == ["active false"])
        background.release()
        #expect(hold.calls.withLock { $0 } == ["active false", "release"])
    }

    @Test func aHoldThatFallsBackIsNotAskedAgain() {
        let hold = RecordingHold()
        hold.fallingBack.withLock { $0 = true }
        let (background, player, _) = rig(.pauses, hasVideo: true, hold: hold)
        player.pause()
        background.updateDisplaySleep()
        #expect(hold.calls.withLock { $0 }.isEmpty, "SDL's behaviour instead")
    }
}

/// A display-sleep hold that records what the window asked of it.
private final class RecordingHold: DisplaySleepHold {
    let calls = Locked<[String]>([])
    let fallingBack = Locked(false)
    func setActive(_ active: Bool) { calls.withLock { $0.append("active \(active)") } }
    func release() { calls.withLock { $0.append("release") } }
    var isFallingBack: Bool { fallingBack.withLock { $0 } }
}
