// Playhead: a player that shows flagged default subtitles (as `playhead play` sets it up)
// plays them even when the item starts before its asset was loaded: the engine is told the
// automatic choice once the groups are known. Without the setting nothing shows.
import Foundation
import PlayheadTestSupport
import Testing

@testable import OpenAVFoundation

@MainActor
@Suite struct FlaggedDefaultPlaybackTests {
    /// Plays a fresh item of the two-track fixture (the second, French, flagged default) on
    /// `clock` and records legible deliveries until 1.5 s.
    func play(showingFlagged: Bool, clock: ManualClock) async throws -> (AVPlayer, LegibleRecorder) {
        let item = AVPlayerItem(url: try SelectionMedia.secondSubtitleDefault.url())
        let output = AVPlayerItemLegibleOutput()
        let recorder = LegibleRecorder()
        output.setDelegate(recorder, queue: nil)
        item.add(output)
        let player = AVPlayer(environment: timedEnvironment(RecordingVideoSink(), clock: clock))
        player.showsFlaggedDefaultSubtitles = showingFlagged
        // The item starts playing at once, before anyone loaded its asset.
        player.replaceCurrentItem(with: item)
        player.play()
        await waitUntil("playing") { player.timeControlStatus == .playing }
        for _ in 0..<2_000 where player.currentTime().seconds < 1.5 { await advance(clock, by: 0.01) }
        return (player, recorder)
    }

    @Test func theFlaggedTrackShowsForAnItemPlayedBeforeItsAssetLoaded() async throws {
        let clock = ManualClock()
        let (player, recorder) = try await play(showingFlagged: true, clock: clock)
        await waitUntil("the flagged track's first cue") { recorder.last?.strings == ["Hello world"] }
        let group = try #require(player.currentItem?.asset.mediaSelectionGroup(forMediaCharacteristic: .legible))
        #expect(player.currentItem?.currentMediaSelection.selectedMediaOption(in: group)?.extendedLanguageTag == "fr")
        player.replaceCurrentItem(with: nil)
    }

    @Test func withoutTheSettingNothingShows() async throws {
        let clock = ManualClock()
        let (player, recorder) = try await play(showingFlagged: false, clock: clock)
        #expect(recorder.all.allSatisfy { $0.strings.isEmpty })
        player.replaceCurrentItem(with: nil)
    }
}
